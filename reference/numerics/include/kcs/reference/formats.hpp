// Floating-point formats of the catalog: f32, f16 (IEEE binary16) and bf16
// (bfloat16), their encodings, rounding modes, classification and ulp
// distance. Every function here is exact: no host floating-point mode, no
// compiler _Float16, no library conversion (the exhaustive tests prove it).
#pragma once

#include <cstdint>
#include <string_view>

namespace kcs::ref {

enum class Format { f32, f16, bf16 };

// How a value that is not representable is rounded.
//  nearest_even: IEEE roundTiesToEven, the conforming mode; overflow to +-inf.
//  toward_zero:  IEEE roundTowardZero; overflow to +-largest finite.
//  nearest_away: IEEE roundTiesToAway; overflow to +-inf.
//  truncate:     drops the low bits of the f32 encoding (bf16 only makes sense;
//                for f16 it is toward_zero on the magnitude with inf kept): a
//                NaN whose payload sits only in the dropped bits becomes inf,
//                the calibration violator's signature.
enum class Rounding { nearest_even, toward_zero, nearest_away, truncate };

struct FormatInfo {
    std::string_view name;     // "f32", "f16", "bf16"
    int storage_bits;          // 32, 16, 16
    int exponent_bits;         // 8, 5, 8
    int precision;             // significand bits p including the implicit bit: 24, 11, 8
    int exponent_bias;         // 127, 15, 127
    double unit_roundoff;      // u = 2^-p: 2^-24, 2^-11, 2^-8
    double min_normal;         // 2^(1-bias)
    double min_subnormal;      // 2^(2-bias-p)
    double max_finite;         // (2 - 2^(1-p)) * 2^bias
};

const FormatInfo& info(Format format);

// Encodings are returned in the low bits of a uint32_t (16 bits for f16/bf16).
std::uint32_t encode(Format format, double value, Rounding rounding = Rounding::nearest_even);
std::uint32_t encode(Format format, float value, Rounding rounding = Rounding::nearest_even);
double decode(Format format, std::uint32_t bits);  // exact: every value of these formats is a double

// Fast, exact paths for the hot conversions (sweeps, oracles).
std::uint16_t f32_to_f16(float value, Rounding rounding = Rounding::nearest_even);
std::uint16_t f32_to_bf16(float value, Rounding rounding = Rounding::nearest_even);
float f16_to_f32(std::uint16_t bits);
float bf16_to_f32(std::uint16_t bits);

// value rounded to the format and back: the nearest representable double.
double round_to(Format format, double value, Rounding rounding = Rounding::nearest_even);

enum class FloatClass { zero, subnormal, normal, infinite, quiet_nan, signalling_nan };
FloatClass classify(Format format, std::uint32_t bits);
bool is_nan(Format format, std::uint32_t bits);
bool sign_bit(Format format, std::uint32_t bits);

// Distance in units in the last place between two encodings of one format,
// counted along the ordered line of representable values:
//  +0 and -0 are the same point (distance 0 between them);
//  +-inf sit one step beyond +-largest finite;
//  two NaNs are at distance 0; a NaN and a non-NaN at kUlpInfinite.
inline constexpr std::uint64_t kUlpInfinite = ~std::uint64_t{0};
std::uint64_t ulp_distance(Format format, std::uint32_t a, std::uint32_t b);

// The spacing of the format's values at x (the ulp of x's binade; the
// subnormal spacing below min_normal): the unit in which ulp errors of
// a result against an exact value x are measured.
double ulp_at(Format format, double x);

}  // namespace kcs::ref
