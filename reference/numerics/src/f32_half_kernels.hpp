// Integer kernels of the f32 <-> f16/bf16 conversions, shared by the scalar
// and the batch entry points. Each kernel is branch-free (selects only) so
// that a loop over it vectorises; the rounding mode is a template argument
// so that the choice is made once per batch, outside the loop.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::kernels {

// f32 -> bf16: bf16 is the top half of f32, so rounding acts on the low
// 16 bits of the encoding and a carry out of the significand moves into
// the exponent (up to inf) on its own.
template <Rounding R>
inline std::uint16_t f32_bits_to_bf16(std::uint32_t x) {
    if constexpr (R == Rounding::truncate) {
        return static_cast<std::uint16_t>(x >> 16);  // NaN with low payload -> inf, by design
    } else {
        const std::uint32_t magnitude = x & 0x7FFFFFFFu;
        std::uint32_t rounded = x;
        if constexpr (R == Rounding::nearest_even) rounded = x + 0x7FFFu + ((x >> 16) & 1u);
        if constexpr (R == Rounding::nearest_away) rounded = x + 0x8000u;
        // toward_zero keeps x: the largest finite f32 cuts to the largest bf16, never to inf.
        const std::uint32_t quiet_nan = (x >> 16) | 0x0040u;  // keeps sign and top 6 payload bits
        return static_cast<std::uint16_t>(magnitude > 0x7F800000u ? quiet_nan : rounded >> 16);
    }
}

// f32 -> f16. Three ranges of |x|:
//  >= 2^-14 (f16 normal or beyond): rebias the exponent (127 -> 15) and
//    round the 13 dropped significand bits; a carry or a too large exponent
//    lands at or above 0x7C00 and is clamped (to inf, or to the largest
//    finite for the directed modes);
//  <  2^-14 (f16 subnormal or zero): the value in units of 2^-24 is
//    significand >> (126 - exponent), rounded on the bits shifted out;
//  NaN: quieted (all modes but truncate), sign and top 9 payload bits kept.
template <Rounding R>
inline std::uint16_t f32_bits_to_f16(std::uint32_t x) {
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t magnitude = x & 0x7FFFFFFFu;

    const std::uint32_t rebiased = magnitude - (112u << 23);  // wraps below 2^-112; unused there
    std::uint32_t normal = rebiased;
    if constexpr (R == Rounding::nearest_even) normal = rebiased + 0x0FFFu + ((rebiased >> 13) & 1u);
    if constexpr (R == Rounding::nearest_away) normal = rebiased + 0x1000u;
    normal >>= 13;
    constexpr bool to_infinity = R == Rounding::nearest_even || R == Rounding::nearest_away;
    const std::uint32_t largest = to_infinity ? 0x7C00u : 0x7BFFu;
    normal = std::min(normal, largest);
    if constexpr (!to_infinity) normal = magnitude == 0x7F800000u ? 0x7C00u : normal;  // inf stays inf

    const std::uint32_t exponent = magnitude >> 23;
    // For exponent 0 (f32 subnormal or zero) the shift is 31 and everything
    // is shifted out with a zero rounding bit, so the wrong implicit bit is
    // harmless. Where the result is unused (exponent > 112) the shift is
    // clamped to 14 so that no shift count is out of range.
    const std::uint32_t shift = std::max(std::min(126u - exponent, 31u), 14u);
    const std::uint32_t significand = (magnitude & 0x007FFFFFu) | 0x00800000u;
    const std::uint32_t half = 1u << (shift - 1);
    std::uint32_t subnormal = significand;
    if constexpr (R == Rounding::nearest_even) subnormal = significand + (half - 1u) + ((significand >> shift) & 1u);
    if constexpr (R == Rounding::nearest_away) subnormal = significand + half;
    subnormal >>= shift;  // < 2^31 before the shift: no wrap

    const std::uint32_t nan_payload = (magnitude >> 13) & 0x03FFu;
    const std::uint32_t nan = R == Rounding::truncate ? (0x7C00u | nan_payload) : (0x7E00u | nan_payload);

    const std::uint32_t result = magnitude > 0x7F800000u ? nan
                               : magnitude >= 0x38800000u ? normal
                                                          : subnormal;
    return static_cast<std::uint16_t>(sign | result);
}

inline std::uint32_t bf16_bits_to_f32(std::uint16_t h) { return std::uint32_t{h} << 16; }

// f16 -> f32 is exact. A subnormal f16 is m * 2^-24 with 0 < m < 2^10; the
// f32 encoding of the integer m (an exact conversion, whatever the host's
// rounding mode) has m's leading bit as implicit bit and exponent
// floor(log2 m), so lowering that exponent by 24 gives m * 2^-24. It is a
// vectorisable leading-zero count.
inline std::uint32_t f16_bits_to_f32(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu;
    const std::uint32_t trailing = h & 0x03FFu;
    const std::uint32_t normal = ((exponent + 112u) << 23) | (trailing << 13);
    const std::uint32_t special = 0x7F800000u | (trailing << 13);  // inf, NaN with payload (and quiet bit) kept
    const std::uint32_t m_as_f32 = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int32_t>(trailing)));
    const std::uint32_t subnormal = trailing == 0 ? 0u : m_as_f32 - (24u << 23);
    const std::uint32_t magnitude = exponent == 0x1Fu ? special : exponent == 0 ? subnormal : normal;
    return sign | magnitude;
}

}  // namespace kcs::ref::kernels
