#include "kcs/reference/layernorm_oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kcs/reference/compensated_sum.hpp"
#include "norm_eps.hpp"

namespace kcs::ref {
namespace {

constexpr std::string_view kOp = "layernorm oracle";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// (hi + lo) / n as a double-double: the quotient, and the remainder
// (exact through fma) plus lo, divided once more.
DoubleDouble divide(const DoubleDouble& sum, double n) {
    const double quotient = sum.hi / n;
    const double remainder = std::fma(-quotient, n, sum.hi);
    return {quotient, (remainder + sum.lo) / n};
}

// x - mean to a relative u: x - mean.hi is split exactly by TwoSum and the
// small parts are combined before the one rounding that matters.
double deviation(double x, const DoubleDouble& mean) {
    const DoubleDouble d = two_sum(x, -mean.hi);
    return d.hi + (d.lo - mean.lo);
}

}  // namespace

LayernormResult layernorm_oracle(std::span<const double> x, std::span<const double> gamma,
                                 std::span<const double> beta, const RowShape& shape, double eps,
                                 Format accumulate) {
    require_rows(kOp, "x", x, shape);
    require_size(kOp, "gamma", gamma.size(), shape.length);
    require_size(kOp, "beta", beta.size(), shape.length);
    const std::size_t n = shape.length;
    const auto count = static_cast<double>(n);

    LayernormResult result;
    result.eps = detail::accumulate_eps(kOp, eps, accumulate);
    result.value.resize(x.size());
    result.normalized.resize(x.size());
    result.mean.resize(shape.rows);
    result.variance.resize(shape.rows);
    result.mean_abs.resize(shape.rows);
    result.root_mean_square.resize(shape.rows);

    std::vector<double> deviations(n);
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const auto row = x.subspan(r * n, n);
        const auto y = std::span(result.value).subspan(r * n, n);
        const auto z = std::span(result.normalized).subspan(r * n, n);

        CompensatedSum sum;
        CompensatedDot sum_of_squares;
        for (const double v : row) {
            sum.add(v);
            sum_of_squares.add_product(v, v);
        }
        result.mean_abs[r] = sum.magnitude() / count;
        result.root_mean_square[r] = std::sqrt(sum_of_squares.value() / count);
        if (!std::isfinite(sum.value())) {
            result.mean[r] = result.variance[r] = kNaN;
            std::fill(y.begin(), y.end(), kNaN);
            std::fill(z.begin(), z.end(), kNaN);
            continue;
        }

        const DoubleDouble mean = divide(sum.pair(), count);
        CompensatedDot squared_deviations;
        for (std::size_t i = 0; i < n; ++i) {
            deviations[i] = deviation(row[i], mean);
            squared_deviations.add_product(deviations[i], deviations[i]);
        }
        const double variance = squared_deviations.value() / count;
        const double e = std::sqrt(variance + result.eps);
        result.mean[r] = mean.hi + mean.lo;
        result.variance[r] = variance;
        for (std::size_t i = 0; i < n; ++i) {
            z[i] = deviations[i] / e;
            y[i] = z[i] * gamma[i] + beta[i];
        }
    }
    return result;
}

}  // namespace kcs::ref
