// Encoding -> value. Every f32, f16 and bf16 value is a double, so decoding
// is exact. The generic path works from the integer fields with ldexp
// (exact for these exponents); the fast paths widen through f32, exact too.
#include <bit>
#include <cmath>
#include <limits>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {

double decode(Format format, std::uint32_t bits) {
    // Fast paths for the finite values and infinities (exact widenings);
    // NaNs take the generic path, to a quiet NaN of their sign.
    switch (format) {
        case Format::f32:
            if ((bits & 0x7F800000u) != 0x7F800000u || (bits & 0x007FFFFFu) == 0)
                return std::bit_cast<float>(bits);
            break;
        case Format::f16:
            if ((bits & 0x7C00u) != 0x7C00u || (bits & 0x03FFu) == 0)
                return f16_to_f32(static_cast<std::uint16_t>(bits));
            break;
        case Format::bf16:
            if ((bits & 0x7F80u) != 0x7F80u || (bits & 0x007Fu) == 0)
                return bf16_to_f32(static_cast<std::uint16_t>(bits));
            break;
        default: break;
    }
    return detail::decode_generic(format, bits);
}

double detail::decode_generic(Format format, std::uint32_t bits) {
    const auto layout = detail::EncodingLayout::of(format);
    const FormatInfo& f = info(format);
    const double sign = (bits & layout.sign_mask) != 0 ? -1.0 : 1.0;
    const std::uint32_t trailing = bits & layout.trailing_mask;
    const std::uint32_t biased = (bits & layout.exponent_mask) >> layout.trailing_bits;
    const std::uint32_t all_ones = layout.exponent_mask >> layout.trailing_bits;

    if (biased == all_ones) {
        // The NaN's payload cannot be carried portably in a double; its sign is.
        return trailing == 0 ? sign * std::numeric_limits<double>::infinity()
                             : std::copysign(std::numeric_limits<double>::quiet_NaN(), sign);
    }
    const int p1 = f.precision - 1;
    if (biased == 0) return sign * std::ldexp(static_cast<double>(trailing), layout.emin - p1);
    const std::uint32_t significand = trailing | (std::uint32_t{1} << p1);
    return sign * std::ldexp(static_cast<double>(significand), static_cast<int>(biased) - f.exponent_bias - p1);
}

}  // namespace kcs::ref
