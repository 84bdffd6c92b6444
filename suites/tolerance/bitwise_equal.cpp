#include "bitwise_equal.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace kcs::suites::tolerance {

namespace {

void require_inside(const ElementRange& range, const char* which) {
    if (range.tensor == nullptr || range.first + range.count > range.tensor->elements())
        throw std::invalid_argument(std::string("compare_bitwise: the ") + which + " range leaves its tensor");
}

// |a - b| as values; infinite when exactly one is NaN or they are opposite infinities.
double distance(double a, double b) {
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<double>::infinity();
    const double d = std::fabs(a - b);
    return std::isnan(d) ? 0 : d;  // inf - inf of one sign: same value
}

}  // namespace

BitwiseComparison compare_bitwise(const ElementRange& expected, const ElementRange& got) {
    require_inside(expected, "expected");
    require_inside(got, "compared");
    if (expected.count != got.count || expected.tensor->dtype != got.tensor->dtype)
        throw std::invalid_argument("compare_bitwise: the ranges differ in length or dtype");
    BitwiseComparison result;
    result.compared = expected.count;
    for (std::size_t i = 0; i < expected.count; ++i) {
        const std::uint64_t e = expected.tensor->bits(expected.first + i);
        const std::uint64_t g = got.tensor->bits(got.first + i);
        if (e == g) continue;
        const BitwiseDifference difference{i, e, g};
        if (result.differing++ < BitwiseComparison::kKeptDifferences) result.differences.push_back(difference);
        const double d = distance(expected.tensor->value(expected.first + i), got.tensor->value(got.first + i));
        if (result.differing == 1 || d > result.widest_distance) {
            result.widest = difference;
            result.widest_distance = d;
        }
    }
    return result;
}

}  // namespace kcs::suites::tolerance
