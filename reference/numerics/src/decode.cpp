// Encoding -> value. Every f32, f16 and bf16 value is a double, so decoding
// is exact; it is done from the integer fields with ldexp (exact for these
// exponents), without going through a narrower hardware type.
#include <bit>
#include <cmath>
#include <limits>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {

double decode(Format format, std::uint32_t bits) {
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
