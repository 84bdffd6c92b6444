#include "kcs/reference/elementwise_oracle.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "format_values.hpp"
#include "kcs/reference/compensated_sum.hpp"
#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {
namespace {

constexpr std::string_view kOp = "elementwise oracle";

// hi + lo rounded to odd in f64: hi if it is exact or its last significand
// bit is odd, else the neighbour of hi on lo's side (which is odd).
double round_to_odd(const DoubleDouble& x) {
    if (x.lo == 0.0) return x.hi;
    if ((std::bit_cast<std::uint64_t>(x.hi) & 1u) != 0) return x.hi;
    return std::nextafter(x.hi, x.lo > 0.0 ? std::numeric_limits<double>::infinity()
                                           : -std::numeric_limits<double>::infinity());
}

double add_unchecked(double a, double b, Format format) {
    return detail::round_to_format(format, a + b);  // double rounding innocuous (header)
}

double mul_unchecked(double a, double b, Format format) {
    return detail::round_to_format(format, a * b);  // the product is exact in f64
}

MulAddResult mul_add_unchecked(double a, double b, double c, Format format) {
    const double product = a * b;  // exact in f64
    MulAddResult result;
    result.unfused = add_unchecked(detail::round_to_format(format, product), c, format);
    const DoubleDouble sum = two_sum(product, c);
    result.fused = std::isfinite(sum.hi) ? detail::round_to_format(format, round_to_odd(sum))
                                         : detail::round_to_format(format, sum.hi);
    return result;
}

void require_operand(std::string_view name, std::size_t index, Format format, double x) {
    detail::require_value_of(kOp, name, index, format, x);
}

}  // namespace

double add_oracle(double a, double b, Format format) {
    require_operand("a", 0, format, a);
    require_operand("b", 0, format, b);
    return add_unchecked(a, b, format);
}

double mul_oracle(double a, double b, Format format) {
    require_operand("a", 0, format, a);
    require_operand("b", 0, format, b);
    return mul_unchecked(a, b, format);
}

double maximum_oracle(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    if (a == b) return std::signbit(a) ? b : a;  // equal values differ at most in the sign of zero
    return a > b ? a : b;
}

MulAddResult mul_add_oracle(double a, double b, double c, Format format) {
    require_operand("a", 0, format, a);
    require_operand("b", 0, format, b);
    require_operand("c", 0, format, c);
    return mul_add_unchecked(a, b, c, format);
}

ElementwiseResult elementwise_oracle(ElementwiseFunction function, std::span<const double> a,
                                     std::span<const double> b, std::span<const double> c,
                                     Format format) {
    const std::size_t n = a.size();
    require_size(kOp, "b", b.size(), n);
    const bool ternary = function == ElementwiseFunction::mul_add;
    if (ternary) require_size(kOp, "c", c.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        require_operand("a", i, format, a[i]);
        require_operand("b", i, format, b[i]);
        if (ternary) require_operand("c", i, format, c[i]);
    }

    ElementwiseResult result;
    result.value.resize(n);
    if (ternary) result.fused.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (function) {
            case ElementwiseFunction::add: result.value[i] = add_unchecked(a[i], b[i], format); break;
            case ElementwiseFunction::mul: result.value[i] = mul_unchecked(a[i], b[i], format); break;
            case ElementwiseFunction::maximum: result.value[i] = maximum_oracle(a[i], b[i]); break;
            case ElementwiseFunction::mul_add: {
                const MulAddResult r = mul_add_unchecked(a[i], b[i], c[i], format);
                result.value[i] = r.unfused;
                result.fused[i] = r.fused;
                break;
            }
        }
    }
    return result;
}

}  // namespace kcs::ref
