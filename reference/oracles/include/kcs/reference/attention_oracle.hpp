// Oracle of single-head scaled dot-product attention:
// scores[s, t] = scale * sum over d of Q[s, d] * K[t, d] (-inf for t > s when
// causal), P[s, :] = softmax(scores[s, :]), O[s, d] = sum over t of P[s, t] * V[t, d].
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

struct AttentionShape {
    std::size_t queries = 0;   // S
    std::size_t keys = 0;      // T (>= 1)
    std::size_t head_dim = 0;  // D (>= 1)
};

struct AttentionOptions {
    bool causal = false;  // top-left: query s sees keys 0 .. s
    // The scale attribute; absent: 1/sqrt(D) correctly rounded to `accumulate`.
    // A given scale is rounded to `accumulate` too, as the definition says.
    std::optional<double> scale = std::nullopt;
    Format accumulate = Format::f32;
    MaskedRow masked_row = MaskedRow::nan;
};

// Per query row s, "unmasked keys" are those the causal mask lets through
// whose score is not -inf; p*[s, t] are the exact probabilities and
// g[s, t] = max score - score[s, t] the gaps. [S, D] arrays are row-major.
struct AttentionResult {
    std::vector<double> value;                   // O*[s, d]
    std::vector<double> weighted_abs_value;      // W[s, d] = sum_t p*[s, t] |V[t, d]|
    std::vector<double> gap_weighted_abs_value;  // sum_t p*[s, t] g[s, t] |V[t, d]|
    std::vector<double> abs_value_sum;           // sum over unmasked t of |V[t, d]|
    std::vector<double> score_max;               // [S] the row's largest score
    std::vector<double> denominator;             // [S] sum_t exp(score - score_max) >= 1
    // [S] A = largest over unmasked t of scale * sum_d |Q[s, d] K[t, d]|.
    std::vector<double> score_magnitude;
    double scale = 0.0;                          // the scale used
};

// Q is [S, D], K and V are [T, D], holding exact values. Throws
// std::invalid_argument on a size mismatch, T = 0 or D = 0.
//
// The composite in f64: scores as double-doubles (Dot2 times the scale,
// exactly), their differences to the row maximum as double-doubles, then
// the softmax oracle's steps (exp, Sum2 denominator), then O as Dot2 of the
// rounded weights with V, divided by the denominator. With u = 2^-53 the
// scores err by at most delta = (gamma(D, u)^2 + 3u^2) * A, even where they
// are large, and the error bound is
//     |value - O*| <= (2 delta + 10u) * W[s, d] + 2^-1072 * abs_value_sum[s, d]
// (scores move the normalised weights by at most 2 delta relative; exp 3u,
// denominator 4u, products, sum and division 3u; the last term covers
// weights in the subnormal range of f64). W and the gap-weighted sums,
// plain f64 sums of positive terms, err by at most 2 delta + gamma(T + 8, u)
// relative (plus the same subnormal term); A and the sums of |V| by at most
// gamma(D + 1, u) and gamma(T, u) relative.
// Special rows follow the softmax oracle: a NaN or +inf score makes the row
// NaN; a row whose scores are all -inf gives the masked_row claim. Masked
// keys do not enter O; an unmasked key's weight meets V in IEEE arithmetic.
AttentionResult attention_oracle(std::span<const double> q, std::span<const double> k,
                                 std::span<const double> v, const AttentionShape& shape,
                                 const AttentionOptions& options);

// RN_format(1 / sqrt(d)), correctly rounded (MPFR): the default scale.
double default_attention_scale(std::size_t head_dim, Format format);

}  // namespace kcs::ref
