// Floating-point formats of the catalog: f32, f16 (IEEE binary16) and bf16
// (bfloat16), their encodings, rounding modes, classification and ulp
// distance. Every function here is exact: no host floating-point mode, no
// compiler _Float16, no library conversion (the exhaustive tests prove it).
#pragma once

#include <cstddef>
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
//                the calibration violator's signature. On finite values it
//                equals toward_zero; a NaN is not quieted, only cut.
enum class Rounding { nearest_even, toward_zero, nearest_away, truncate };

std::string_view to_string(Format format);      // "f32", "f16", "bf16"
std::string_view to_string(Rounding rounding);  // the enumerator's name

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
// One rounding from the exact source value (no double rounding through f32).
// Zeros and infinities keep their sign in every mode. A NaN keeps its sign
// and the top p-1 bits of its trailing significand (its payload, aligned at
// the top); every mode but truncate then sets the quiet bit, so a NaN stays
// a NaN (f32 0x7F800001 -> bf16 0x7FC0), while truncate keeps the cut bits
// as they are (0x7F800001 -> 0x7F80, inf).
std::uint32_t encode(Format format, double value, Rounding rounding = Rounding::nearest_even);
std::uint32_t encode(Format format, float value, Rounding rounding = Rounding::nearest_even);
// Exact: every value of these formats is a double. A NaN decodes to a quiet
// NaN of the same sign (its payload is not carried).
double decode(Format format, std::uint32_t bits);

// Fast, exact paths for the hot conversions (sweeps, oracles). f32_to_f16
// and f32_to_bf16 give the same bits as encode; f16_to_f32 and bf16_to_f32
// give decode's value and keep a NaN's sign and payload bit for bit (a
// signalling NaN stays signalling).
std::uint16_t f32_to_f16(float value, Rounding rounding = Rounding::nearest_even);
std::uint16_t f32_to_bf16(float value, Rounding rounding = Rounding::nearest_even);
float f16_to_f32(std::uint16_t bits);
float bf16_to_f32(std::uint16_t bits);

// Batch forms of the four above, for throughput: out[i] = f(in[i]) for
// i < n. The loops are branch-light integer code the compiler vectorises;
// in and out must not overlap.
void f32_to_f16(const float* in, std::uint16_t* out, std::size_t n,
                Rounding rounding = Rounding::nearest_even);
void f32_to_bf16(const float* in, std::uint16_t* out, std::size_t n,
                 Rounding rounding = Rounding::nearest_even);
void f16_to_f32(const std::uint16_t* in, float* out, std::size_t n);
void bf16_to_f32(const std::uint16_t* in, float* out, std::size_t n);

// value rounded to the format and back: the representable double the
// rounding selects (for nearest_even the nearest one; inf on overflow).
double round_to(Format format, double value, Rounding rounding = Rounding::nearest_even);

// Classes of an encoding. A NaN is quiet when the top bit of its trailing
// significand is set (IEEE 754-2019 6.2.1), signalling otherwise.
enum class FloatClass { zero, subnormal, normal, infinite, quiet_nan, signalling_nan };
FloatClass classify(Format format, std::uint32_t bits);  // bits above storage_bits are ignored
std::string_view to_string(FloatClass value);
bool is_nan(Format format, std::uint32_t bits);
bool sign_bit(Format format, std::uint32_t bits);

// Distance in units in the last place between two encodings of one format,
// counted along the ordered line of representable values: the number of
// representable values v with min(a,b) < v <= max(a,b), each zero counted once.
//  +0 and -0 are the same point (distance 0 between them), so
//  distance(+min_subnormal, -min_subnormal) = 2;
//  +-inf sit one step beyond +-largest finite;
//  two NaNs are at distance 0; a NaN and a non-NaN at kUlpInfinite.
inline constexpr std::uint64_t kUlpInfinite = ~std::uint64_t{0};
std::uint64_t ulp_distance(Format format, std::uint32_t a, std::uint32_t b);

// The spacing of the format's values at x: the unit in which ulp errors of
// a result against an exact value x are measured (SPEC.md section 3, ulp_table).
// With E = floor(log2|x|), p = precision and emin = 1 - bias:
//   ulp_at(x) = 2^(max(E, emin) - p + 1)    for finite x != 0,
// so at a power of two the spacing of the binade that starts there (the
// larger one) counts, and below min_normal the subnormal spacing;
//   ulp_at(0) = min_subnormal;
//   ulp_at(+-inf) = ulp_at(max_finite) (the SPEC's replacement of an
//   infinite value); ulp_at(NaN) = NaN.
// A finite x beyond max_finite keeps the formula (its binade's spacing).
double ulp_at(Format format, double x);

}  // namespace kcs::ref
