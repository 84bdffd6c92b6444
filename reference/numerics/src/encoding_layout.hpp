// The bit layout of a format's encoding, derived from its FormatInfo: the
// masks every generic routine (encode, decode, classify, ulp) works with.
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::detail {

struct EncodingLayout {
    int trailing_bits;              // p - 1: the stored significand bits
    int emin;                       // 1 - bias
    std::uint32_t sign_mask;        // the top storage bit
    std::uint32_t exponent_mask;    // all exponent bits set: the encoding of +inf
    std::uint32_t trailing_mask;    // the stored significand bits
    std::uint32_t quiet_bit;        // top trailing bit: set in a quiet NaN

    static EncodingLayout of(Format format) {
        const FormatInfo& f = info(format);
        EncodingLayout l{};
        l.trailing_bits = f.precision - 1;
        l.emin = 1 - f.exponent_bias;
        l.sign_mask = std::uint32_t{1} << (f.storage_bits - 1);
        l.trailing_mask = (std::uint32_t{1} << l.trailing_bits) - 1;
        l.exponent_mask = l.sign_mask - 1 - l.trailing_mask;
        l.quiet_bit = std::uint32_t{1} << (l.trailing_bits - 1);
        return l;
    }

    std::uint32_t storage_mask() const { return sign_mask | (sign_mask - 1); }
};

// encode() and decode() without their fast paths: integer arithmetic only,
// the reference the fast paths are tested against.
std::uint32_t encode_generic(Format format, double value, Rounding rounding);
double decode_generic(Format format, std::uint32_t bits);

}  // namespace kcs::ref::detail
