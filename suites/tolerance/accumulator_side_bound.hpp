// Pieces of the accumulator-side error bound E of an operator's value before
// its final store: how far the kernel's pre-store value v may lie from y*
// when the kernel honours its declared accumulator. C-PRC-04 check (b) uses
// E: where [y* - E, y* + E], widened by the oracle's own error, holds no
// rounding midpoint of the output dtype, RN_out(v) = RN_out(y*) exactly.
// E is the cited class's per-element bound without its output-rounding term
// u(out)|y*| (tolerance/dot_bound.hpp for reductions, C-PRC-01;
// tolerance/stability_bound.hpp for softmax, C-PRC-02, whose bound composes
// exp's C-CMP-01 floor with the denominator's C-PRC-01 bound).
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::suites {

// C-PRC-02's magnitude term of a softmax element:
// M = y* (L32 + g) / L + T, L32 = max(L, 32), g = m - x_i the gap to the
// row maximum, T = tiny(out) / (L u_acc) where |y*| < 2 tiny(out) and 0
// elsewhere, tiny(out) the smallest normal of the output dtype.
double softmax_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star, double gap);

// The oracles' own error bounds (reference/oracles/include/kcs/reference/*.hpp),
// by which E is widened: reduce_sum's Sum2 u|y*| + gamma(K - 1, u)^2 M and
// softmax's 9u y* + 2^-1073, u = 2^-53.
double reduce_sum_oracle_error(std::int64_t K, double y_star, double magnitude);
double softmax_oracle_error(double y_star);

}  // namespace kcs::suites
