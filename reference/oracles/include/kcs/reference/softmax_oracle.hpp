// Oracle of softmax over the last axis:
// y[r, i] = exp(x[r, i] - m) / sum over j of exp(x[r, j] - m), m the row maximum.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

struct SoftmaxResult {
    // y*[r, i], [rows, length].
    std::vector<double> value;
    // m[r], the row maximum: -inf for a fully masked row, NaN for a row with
    // a NaN. The gap of element i is m[r] - x[r, i].
    std::vector<double> row_max;
    // s[r] = sum over j of exp(x[r, j] - m[r]) >= 1, in f64 with relative
    // error at most 4u + gamma(N - 1, u)^2. Its terms are positive, so s[r]
    // is also the denominator's magnitude term; NaN for rows without a value.
    std::vector<double> denominator;
};

// x is [rows, length] (length N >= 1) holding the exact logits; -inf entries
// are masked. Throws std::invalid_argument on a size mismatch or N = 0.
//
// Evaluated in f64 with the maximum subtracted, the differences x - m taken
// exactly (TwoSum), exp from the C library and the denominator by Sum2.
// Error bound, u = 2^-53: |value - y*| <= 9u * y* + 2^-1073
// (exp 3u, denominator 4u + gamma(N - 1, u)^2, division u; the absolute term
// covers results in the subnormal range of f64: half an ulp there for exp,
// for its correction and for the division).
// Special rows: a NaN anywhere makes the row NaN; a +inf logit makes it NaN
// too (the definition's x - m is inf - inf); a row of -inf only gives the
// masked_row claim (NaN or +0) in every position; a masked entry of any
// other row gets exactly +0.
SoftmaxResult softmax_oracle(std::span<const double> x, const RowShape& shape,
                             MaskedRow masked_row);

}  // namespace kcs::ref
