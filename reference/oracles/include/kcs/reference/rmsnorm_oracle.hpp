// Oracle of rmsnorm over the last axis:
// y[r, i] = (x[r, i] / sqrt(ms + eps)) * gamma[i], ms = (1/N) sum x[r, j]^2.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

struct RmsnormResult {
    std::vector<double> value;        // y*[r, i], [rows, length]
    std::vector<double> mean_square;  // [rows] ms*, relative error <= 2u + gamma(N, u)^2
    double eps = 0.0;                 // eps as rounded to the accumulate format
};

// x is [rows, length] (N = length >= 1) and gamma [length], holding exact
// values; eps > 0 is rounded to `accumulate`. Throws std::invalid_argument on
// a size mismatch, N = 0 or eps <= 0.
//
// In f64 with the mean square as Dot2 of the row with itself (exact
// squares). Error bound, u = 2^-53: |value - y*| <= 7u |y*|.
// Special values follow the definition's IEEE evaluation: an infinite entry
// makes ms = inf and 1/sqrt(ms + eps) = 0, so the other outputs are 0 and
// the infinite one NaN; a NaN makes the row NaN.
RmsnormResult rmsnorm_oracle(std::span<const double> x, std::span<const double> gamma,
                             const RowShape& shape, double eps, Format accumulate = Format::f32);

}  // namespace kcs::ref
