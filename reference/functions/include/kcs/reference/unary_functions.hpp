// The correctly rounded unary functions of the catalog's `unary` operator
// (spec/v1/operators/unary.yaml): exp, log, tanh, erf, gelu, sigmoid and
// rsqrt, each for an argument that is a value of f32, f16 or bf16 and a
// result in the same format, rounded once to nearest even from the exact
// real f(x). These are the values cr of C-CMP-01 that every candidate is
// measured against, so they are exact, never "nearly right".
//
// How: f is evaluated in double with the C library, whose error is bounded
// (src/double_evaluation.hpp); when the whole interval of that bound rounds to one
// value of the format, that value is cr. Otherwise (rare: the exact value is
// near a rounding boundary) f is enclosed with MPFR from 256 bits, doubling
// up to 4096, until the enclosure rounds to a single value (Ziv's strategy).
// Special values follow the limits of f, never a literal evaluation of a
// formula (special_values.cpp lists each choice against unary.yaml).
//
// Thread-safe: no shared mutable state; the MPFR path uses local mpfr_t.
// Assumes the default floating-point environment of the calling thread
// (round to nearest), which the double path's error bounds rely on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {

enum class UnaryFunction { exp, log, tanh, erf, gelu, sigmoid, rsqrt };

inline constexpr std::array<UnaryFunction, 7> kUnaryFunctions = {
    UnaryFunction::exp,  UnaryFunction::log,     UnaryFunction::tanh, UnaryFunction::erf,
    UnaryFunction::gelu, UnaryFunction::sigmoid, UnaryFunction::rsqrt,
};

// The catalog's name of each function ("exp", ..., "rsqrt") and back.
std::string_view unary_function_name(UnaryFunction function);
std::optional<UnaryFunction> parse_unary_function(std::string_view name);

// Which evaluation decided a result.
//  special: a special value or a symbolically decided case (NaN, infinities,
//           zeros, domain errors, gelu of a tiny argument, gelu far below
//           its underflow).
//  double:  the double evaluation and its error bound decided it.
//  mpfr:    the double interval straddled a rounding boundary; MPFR decided.
enum class UnaryPath { special, double_bound, mpfr };

struct UnaryResult {
    std::uint32_t bits;  // encoding of cr in the format (low 16 bits for f16/bf16)
    UnaryPath path;
};

// cr = RN(f(x)) for the value x encoded by x_bits in `format`, encoded in the
// same format. A NaN result is the format's positive quiet NaN with an empty
// payload. Throws std::invalid_argument when x_bits has bits beyond the
// format's width, and std::runtime_error if MPFR cannot decide at 4096 bits
// (an undecided input is an error, never a guess; no input is known to).
UnaryResult correctly_rounded(UnaryFunction function, Format format, std::uint32_t x_bits);

inline std::uint32_t correctly_rounded_bits(UnaryFunction function, Format format,
                                            std::uint32_t x_bits) {
    return correctly_rounded(function, format, x_bits).bits;
}

// The same on values: x must be a value of `format` (any NaN is accepted);
// otherwise std::invalid_argument. Returns cr decoded (exact in double).
double correctly_rounded_value(UnaryFunction function, Format format, double x);

// What a batch did: how many inputs each path decided.
struct UnaryBatchStats {
    std::size_t special = 0;
    std::size_t double_bound = 0;
    std::size_t mpfr = 0;

    std::size_t total() const { return special + double_bound + mpfr; }
    void add(UnaryPath path);
    UnaryBatchStats& operator+=(const UnaryBatchStats& other);
};

// Batch forms for sweeps: y[i] = cr(f, x[i]). The spans must have equal
// sizes (std::invalid_argument otherwise); x and y may be the same array.
// 32-bit words hold any format's encoding; 16-bit words hold f16 or bf16
// only (std::invalid_argument for f32).
UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const std::uint32_t> x_bits,
                                        std::span<std::uint32_t> y_bits);
UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const std::uint16_t> x_bits,
                                        std::span<std::uint16_t> y_bits);
UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const double> x, std::span<double> y);

// The MPFR path alone, for every finite x in f's domain that is not decided
// symbolically: the fallback's own result, exposed so that tests can check it
// on inputs the double path would decide. Special values are still handled
// first (path `special`).
UnaryResult correctly_rounded_by_mpfr(UnaryFunction function, Format format,
                                      std::uint32_t x_bits);

// Frees the MPFR constant caches of the calling thread (its log 2, pi, ...).
// A thread that may have taken the MPFR path calls it before it ends, or the
// caches leak with it (LeakSanitizer reports them).
void release_thread_caches();

}  // namespace kcs::ref
