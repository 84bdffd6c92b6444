#include "kcs/reference/softmax_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kcs/reference/compensated_sum.hpp"
#include "shifted_exp.hpp"

namespace kcs::ref {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Largest entry of the row; NaN if the row holds a NaN.
double row_maximum(std::span<const double> row) {
    double largest = -HUGE_VAL;
    for (const double x : row) {
        if (std::isnan(x)) return kNaN;
        largest = std::max(largest, x);
    }
    return largest;
}

}  // namespace

SoftmaxResult softmax_oracle(std::span<const double> x, const RowShape& shape,
                             MaskedRow masked_row) {
    require_rows("softmax oracle", "x", x, shape);
    SoftmaxResult result{std::vector<double>(x.size()), std::vector<double>(shape.rows),
                         std::vector<double>(shape.rows)};
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const auto row = x.subspan(r * shape.length, shape.length);
        const auto out = std::span(result.value).subspan(r * shape.length, shape.length);
        const double m = row_maximum(row);
        result.row_max[r] = m;
        if (!std::isfinite(m)) {
            // NaN row, +inf (inf - inf in the definition), or every entry -inf.
            const bool fully_masked = m == -HUGE_VAL;
            const double fill = fully_masked && masked_row == MaskedRow::zero ? 0.0 : kNaN;
            std::fill(out.begin(), out.end(), fill);
            result.denominator[r] = kNaN;
            continue;
        }
        CompensatedSum denominator;
        for (std::size_t i = 0; i < row.size(); ++i) {
            out[i] = detail::exp_of_difference(row[i], m);
            denominator.add(out[i]);
        }
        const double s = denominator.value();
        for (double& y : out) y /= s;
        result.denominator[r] = s;
    }
    return result;
}

}  // namespace kcs::ref
