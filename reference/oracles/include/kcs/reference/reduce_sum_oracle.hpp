// Oracle of reduce_sum: y[r] = sum over k of x[r, k].
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

struct ReduceSumResult {
    // y*[r]: the exact sum of row r rounded to f64 as Sum2 gives it (bound below).
    std::vector<double> value;
    // M[r] = sum over k of |x[r, k]|, the magnitude term of C-PRC-01 and
    // C-ORD-01; relative error at most gamma(K - 1, 2^-53).
    std::vector<double> magnitude;
};

// x is [rows, length] holding the exact input values; length (K) >= 1.
// Throws std::invalid_argument on a size mismatch or an empty row.
//
// Error bound, u = 2^-53, for a row whose sum and partial sums are finite:
//     |value - y*| <= u |y*| + gamma(K - 1, u)^2 * M
// (Sum2, compensated_sum.hpp). Special values as an IEEE sum: NaN, or +inf
// with -inf, give NaN; otherwise an infinity wins; a row of -0 gives -0.
ReduceSumResult reduce_sum_oracle(std::span<const double> x, const RowShape& shape);

}  // namespace kcs::ref
