// Pieces of the accumulator-side error bound E of an operator's value before
// its final store: how far the kernel's pre-store value v may lie from y*
// when the kernel honours its declared accumulator. C-PRC-04 check (b) uses
// E: where [y* - E, y* + E], widened by the oracle's own error, holds no
// rounding midpoint of the output dtype, RN_out(v) = RN_out(y*) exactly.
// E is the cited class's per-element bound without its output-rounding term
// u(out)|y*| (tolerance/dot_bound.hpp for reductions, C-PRC-01;
// tolerance/stability_bound.hpp for softmax and the norms, C-PRC-02, whose
// bound composes exp's C-CMP-01 floor with the denominator's C-PRC-01 bound,
// and bounds the norms' statistics for any evaluation method).
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::suites {

// C-PRC-02's magnitude term of a softmax element:
// M = y* (L32 + g) / L + T, L32 = max(L, 32), g = m - x_i the gap to the
// row maximum, T = tiny(out) / (L u_acc) where |y*| < 2 tiny(out) and 0
// elsewhere, tiny(out) the smallest normal of the output dtype.
double softmax_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star, double gap);

// One layernorm element as C-PRC-02's magnitude term reads it: gamma_i
// (w) and beta_i (b), the exact z_i = (x_i - mean) / e, and the row's
// var*, R = sqrt(mean of x^2), mean|x| and eps (rounded to the accumulator).
struct LayernormElement {
    double w = 0, b = 0, z = 0;
    double variance = 0, root_mean_square = 0, mean_abs = 0, eps = 0;
};

// C-PRC-02's magnitude term of a layernorm element:
// M = |w| (mean|x| / e + |z| ((L + 2) / L) (var* + 2 s R + G R^2) / (2 e^2))
//     + (L32 / L) (|w z| + |b|) + T,
// s = sqrt(var*), e = sqrt(var* + eps), G = gamma(L + 2, u_acc), T as above.
double layernorm_magnitude(std::int64_t L, double u_acc, ref::Format out, const LayernormElement& element,
                           double y_star);

// C-PRC-02's magnitude term of an rmsnorm element: M = |y*| (L + 1 + 2 L32) / (2 L) + T.
double rmsnorm_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star);

// The oracles' own error bounds (reference/oracles/include/kcs/reference/*.hpp),
// by which E is widened: reduce_sum's Sum2 u|y*| + gamma(K - 1, u)^2 M and
// softmax's 9u y* + 2^-1073, u = 2^-53.
double reduce_sum_oracle_error(std::int64_t K, double y_star, double magnitude);
double softmax_oracle_error(double y_star);
// layernorm's 9u (|w z| + |b|) + 2 G |w| mean|x| / e with G = gamma(L, u)^2,
// and rmsnorm's 7u |y*| (reference/oracles/include/kcs/reference/*norm_oracle.hpp).
double layernorm_oracle_error(std::int64_t L, const LayernormElement& element);
double rmsnorm_oracle_error(double y_star);

}  // namespace kcs::suites
