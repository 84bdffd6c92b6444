// The tightest catalog tolerance each oracle is used with, from the
// formulas of spec/v1/classes/*.yaml for an f32 accumulator (u = 2^-24).
//
// The acceptance rule: an oracle's error must be at most 1/1000 of
// the tightest tolerance that uses it. For each operator the "floor" below
// is at most the first (K-dependent) term of every class that judges that
// operator against this oracle (C-PRC-01 dot_bound with c = 1, C-PRC-02
// stability_bound with c = 5, C-ORD-01 order_bound with c = 2); the
// u(out)|y*| term of each bound is left out, which only makes the floor
// smaller. Where a class uses gamma(K - 1, u) with c = 2, the floor's
// gamma(K, u) is smaller since gamma(K, u) <= 2 gamma(K - 1, u) for K >= 2.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref::test {

inline constexpr double kOracleShare = 1e-3;  // the oracle's share of a tolerance
inline constexpr double kAccumulatorRoundoff = 0x1p-24;  // u(f32)
inline constexpr double kF64Roundoff = 0x1p-53;

inline double gamma_f32(std::size_t k) {
    return kcs::ref::gamma(static_cast<std::int64_t>(k), kAccumulatorRoundoff);
}
inline double gamma_f64(std::size_t k) {
    return kcs::ref::gamma(static_cast<std::int64_t>(k), kF64Roundoff);
}

// matmul, reduce_sum: C-PRC-01 gamma(K, u) M; C-ORD-01 2 gamma(K - 1, u) M.
inline double reduction_floor(std::size_t k, double magnitude) {
    return gamma_f32(k) * magnitude;
}

// softmax, element of exact value y* in a row of length L: C-ORD-01's M is
// y*; C-PRC-02's is y* (L32 + g) / L + T >= y* + T, with
// T = tiny(f32) / (L u) for |y*| < 2 tiny(f32) (the only class whose
// precondition admits outputs below f32's normal range); C-PRC-01, read with
// the denominator's relative error reaching y unchanged, also gives y*.
inline double softmax_floor(std::size_t length, double exact) {
    const double tiny = 0x1p-126;
    const double underflow = std::fabs(exact) < 2 * tiny
                                 ? tiny / (static_cast<double>(length) * kAccumulatorRoundoff)
                                 : 0.0;
    return gamma_f32(length) * (std::fabs(exact) + underflow);
}

// layernorm: C-ORD-01 (gamma ones, beta zeros) M >= mean|x| / e + |z| var*/e^2
// >= mean|x| / e + |z| / 2 (its precondition var* >= eps); C-PRC-02's M >=
// |w| mean|x| / e + |w z| + |b|. The floor takes the smaller of each part.
inline double layernorm_floor(std::size_t length, double weight, double bias, double z,
                              double mean_abs, double e) {
    return gamma_f32(length) *
           (std::fabs(weight) * mean_abs / e + (std::fabs(weight * z) + std::fabs(bias)) / 2);
}

// rmsnorm: C-ORD-01 2 gamma(K - 1, u) |y*| / 2; C-PRC-02 5 gamma(L, u) |y*| (L + 1 + 2 L32) / (2 L).
inline double rmsnorm_floor(std::size_t length, double exact) {
    return gamma_f32(std::max<std::size_t>(length - 1, 1)) * std::fabs(exact);
}

// attention, output (s, d) with W = sum_t p*_t |v_t| and A the row's
// largest scale * sum_d |q_d k_td|, T keys (K = L = T), head dimension D:
// C-ORD-01 2 gamma(T - 1, u) * 2 W (1 + A (D + 1) / (T - 1)); C-PRC-02
// 5 gamma(T, u) * W (L32 + 2 (D + 1) A) / T, and 2 / T >= 1 / (T - 1) for T >= 2.
// Both are at least gamma(T, u) W (1 + A (D + 1) / max(T - 1, 1)).
inline double attention_floor(std::size_t keys, std::size_t head_dim, double weighted_abs_value,
                              double score_magnitude) {
    const double spread = static_cast<double>(std::max<std::size_t>(keys - 1, 1));
    return gamma_f32(keys) * weighted_abs_value *
           (1 + score_magnitude * static_cast<double>(head_dim + 1) / spread);
}

}  // namespace kcs::ref::test
