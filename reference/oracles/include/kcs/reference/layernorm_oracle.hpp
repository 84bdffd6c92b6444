// Oracle of layernorm over the last axis:
// y[r, i] = (x[r, i] - mean) / sqrt(var + eps) * gamma[i] + beta[i],
// var the biased (population) variance of the row.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

struct LayernormResult {
    std::vector<double> value;       // y*[r, i], [rows, length]
    std::vector<double> normalized;  // z*[r, i] = (x[r, i] - mean) / e, e = sqrt(var* + eps)
    std::vector<double> mean;        // [rows] the row mean, error <= u|mean| + gamma(N, u)^2 mean|x|
    std::vector<double> variance;    // [rows] var* >= 0, error bound below
    std::vector<double> mean_abs;    // [rows] (1/N) sum |x|: the mean's magnitude term
    std::vector<double> root_mean_square;  // [rows] R = sqrt((1/N) sum x^2), to a few u
    double eps = 0.0;                // eps as rounded to the accumulate format
};

// x is [rows, length] (N = length >= 1), gamma and beta [length], all
// holding exact values; eps > 0 is rounded to `accumulate` as the operator's
// definition says. Throws std::invalid_argument on a size mismatch, N = 0 or
// eps <= 0.
//
// Two-pass in f64: the mean as a double-double from Sum2, deviations
// x - mean computed to a relative u, the variance as Dot2 of the deviations
// (exact squares). With u = 2^-53, G = gamma(N, u)^2 and e = sqrt(var* + eps):
//     |variance - var*| <= 5u var* + 4 (G mean|x|)^2,
//     |value - y*| <= 9u (|gamma_i z_i*| + |beta_i|) + 2 G |gamma_i| mean|x| / e.
// Rows with mean 1e4 and spread 1e-2 lose nothing: no E[x^2] - E[x]^2.
// A row with a non-finite entry (or whose sum overflows) is NaN throughout,
// as the definition's IEEE evaluation gives (x - mean meets inf - inf or NaN).
LayernormResult layernorm_oracle(std::span<const double> x, std::span<const double> gamma,
                                 std::span<const double> beta, const RowShape& shape, double eps,
                                 Format accumulate = Format::f32);

}  // namespace kcs::ref
