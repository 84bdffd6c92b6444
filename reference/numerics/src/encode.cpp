// The generic, exact conversion of an f64 or f32 value to any format under
// any rounding mode. Integer arithmetic only: the value is taken apart into
// sign, integer significand and exponent, rounded once, and reassembled.
#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

using detail::EncodingLayout;

// |value| = significand * 2^exponent, significand != 0 and < 2^53.
struct FiniteMagnitude {
    std::uint64_t significand;
    int exponent;
};

// Rounds a nonzero finite magnitude to the format; returns the encoding
// without sign. The result's quantum (the value of its last bit) is
// q = max(E, emin) - p + 1 with E = floor(log2|value|), which covers normal
// and subnormal results alike. Expressed in units of 2^q, the rounded value
// m is at most 2^p, and ((q - qmin) << (p - 1)) + m is its encoding: a
// subnormal has q = qmin, and a normal's implicit bit adds the 1 that its
// biased exponent needs; a carry to 2^p moves into the exponent by itself.
std::uint32_t round_magnitude(const EncodingLayout& layout, FiniteMagnitude v, Rounding rounding) {
    const int p = layout.trailing_bits + 1;
    const int msb = 63 - std::countl_zero(v.significand);
    const int value_exponent = v.exponent + msb;
    const int quantum = std::max(value_exponent, layout.emin) - p + 1;
    const int shift = quantum - v.exponent;  // the number of bits rounded away
    if (shift < 0) throw std::logic_error("kcs::ref::encode: source wider than f64");

    std::uint64_t kept = 0;
    bool round_bit = false;  // the first bit rounded away
    bool sticky = false;     // any bit below it
    if (shift == 0) {
        kept = v.significand;
    } else if (shift <= 63) {
        kept = v.significand >> shift;
        round_bit = (v.significand >> (shift - 1)) & 1u;
        sticky = (v.significand & ((std::uint64_t{1} << (shift - 1)) - 1)) != 0;
    } else {
        sticky = true;  // significand < 2^53: every bit lies below the rounding bit
    }

    switch (rounding) {
        case Rounding::nearest_even: kept += round_bit && (sticky || (kept & 1u)); break;
        case Rounding::nearest_away: kept += round_bit; break;
        case Rounding::toward_zero:
        case Rounding::truncate: break;
    }

    const int qmin = layout.emin - p + 1;
    const std::uint64_t encoding = (static_cast<std::uint64_t>(quantum - qmin) << layout.trailing_bits) + kept;
    if (encoding >= layout.exponent_mask) {  // beyond the largest finite
        const bool to_infinity = rounding == Rounding::nearest_even || rounding == Rounding::nearest_away;
        return to_infinity ? layout.exponent_mask : layout.exponent_mask - 1;
    }
    return static_cast<std::uint32_t>(encoding);
}

// A NaN keeps its sign and the top trailing bits of its payload (the
// source's trailing significand, aligned at its top). Every mode but
// truncate sets the quiet bit; truncate only drops bits, so a payload that
// lay only in the dropped bits leaves the encoding of inf.
std::uint32_t convert_nan(const EncodingLayout& layout, std::uint64_t trailing, int source_trailing_bits,
                          Rounding rounding) {
    const auto kept = static_cast<std::uint32_t>(trailing >> (source_trailing_bits - layout.trailing_bits));
    const std::uint32_t quiet = rounding == Rounding::truncate ? 0 : layout.quiet_bit;
    return layout.exponent_mask | quiet | kept;
}

struct Unpacked {
    bool negative;
    bool is_zero, is_infinite, is_nan;
    std::uint64_t trailing;  // the stored significand bits
    FiniteMagnitude magnitude;
};

Unpacked unpack(double value) {
    const auto bits = std::bit_cast<std::uint64_t>(value);
    const std::uint64_t trailing = bits & ((std::uint64_t{1} << 52) - 1);
    const int biased = static_cast<int>((bits >> 52) & 0x7FF);
    Unpacked u{};
    u.negative = (bits >> 63) != 0;
    u.trailing = trailing;
    u.is_zero = biased == 0 && trailing == 0;
    u.is_infinite = biased == 0x7FF && trailing == 0;
    u.is_nan = biased == 0x7FF && trailing != 0;
    u.magnitude = biased == 0 ? FiniteMagnitude{trailing, -1074}
                              : FiniteMagnitude{trailing | (std::uint64_t{1} << 52), biased - 1075};
    return u;
}

Unpacked unpack(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint64_t trailing = bits & 0x007FFFFFu;
    const int biased = static_cast<int>((bits >> 23) & 0xFF);
    Unpacked u{};
    u.negative = (bits >> 31) != 0;
    u.trailing = trailing;
    u.is_zero = biased == 0 && trailing == 0;
    u.is_infinite = biased == 0xFF && trailing == 0;
    u.is_nan = biased == 0xFF && trailing != 0;
    u.magnitude = biased == 0 ? FiniteMagnitude{trailing, -149}
                              : FiniteMagnitude{trailing | (std::uint64_t{1} << 23), biased - 150};
    return u;
}

std::uint32_t encode_unpacked(Format format, const Unpacked& u, int source_trailing_bits, Rounding rounding) {
    const EncodingLayout layout = EncodingLayout::of(format);
    std::uint32_t magnitude = 0;
    if (u.is_nan) magnitude = convert_nan(layout, u.trailing, source_trailing_bits, rounding);
    else if (u.is_infinite) magnitude = layout.exponent_mask;  // every mode keeps inf
    else if (!u.is_zero) magnitude = round_magnitude(layout, u.magnitude, rounding);
    return (u.negative ? layout.sign_mask : 0) | magnitude;
}

// value rounded to f32 by round-to-odd: toward zero, then the last bit set
// if anything was cut. Rounding that to a format of at most 22 bits (f16,
// bf16) to nearest even gives the direct rounding of `value`: round-to-odd
// with two or more spare bits makes double rounding innocuous (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", IEEE TC 57(4), 2008). f16 and bf16
// have 13 and 16 spare bits; bf16's subnormals lie on f32's finer grid.
float round_to_odd_f32(double value) {
    const float nearest = static_cast<float>(value);  // RNE: the default mode, the only one KCS runs in
    if (static_cast<double>(nearest) == value) return nearest;
    auto bits = std::bit_cast<std::uint32_t>(nearest);
    if (std::abs(static_cast<double>(nearest)) > std::abs(value)) --bits;  // toward zero (inf -> max finite)
    return std::bit_cast<float>(bits | 1u);
}

}  // namespace

std::uint32_t encode(Format format, double value, Rounding rounding) {
    // Fast paths for round to nearest even, the mode inputs are generated
    // in; NaNs (payload rules) and the other modes take the generic path.
    if (rounding == Rounding::nearest_even && !std::isnan(value)) {
        switch (format) {
            case Format::f32: return std::bit_cast<std::uint32_t>(static_cast<float>(value));
            case Format::f16: return f32_to_f16(round_to_odd_f32(value));
            case Format::bf16: return f32_to_bf16(round_to_odd_f32(value));
            default: break;
        }
    }
    return detail::encode_generic(format, value, rounding);
}

std::uint32_t detail::encode_generic(Format format, double value, Rounding rounding) {
    return encode_unpacked(format, unpack(value), 52, rounding);
}

std::uint32_t encode(Format format, float value, Rounding rounding) {
    return encode_unpacked(format, unpack(value), 23, rounding);
}

double round_to(Format format, double value, Rounding rounding) {
    return decode(format, encode(format, value, rounding));
}

}  // namespace kcs::ref
