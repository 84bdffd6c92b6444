#include "kcs/reference/rmsnorm_oracle.hpp"

#include <cmath>

#include "kcs/reference/compensated_sum.hpp"
#include "norm_eps.hpp"

namespace kcs::ref {

RmsnormResult rmsnorm_oracle(std::span<const double> x, std::span<const double> gamma,
                             const RowShape& shape, double eps, Format accumulate) {
    constexpr std::string_view op = "rmsnorm oracle";
    require_rows(op, "x", x, shape);
    require_size(op, "gamma", gamma.size(), shape.length);
    const std::size_t n = shape.length;

    RmsnormResult result;
    result.eps = detail::accumulate_eps(op, eps, accumulate);
    result.value.resize(x.size());
    result.mean_square.resize(shape.rows);
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const auto row = x.subspan(r * n, n);
        CompensatedDot sum_of_squares;
        for (const double v : row) sum_of_squares.add_product(v, v);
        const double mean_square = sum_of_squares.value() / static_cast<double>(n);
        const double rrms = 1.0 / std::sqrt(mean_square + result.eps);
        result.mean_square[r] = mean_square;
        for (std::size_t i = 0; i < n; ++i) result.value[r * n + i] = (row[i] * rrms) * gamma[i];
    }
    return result;
}

}  // namespace kcs::ref
