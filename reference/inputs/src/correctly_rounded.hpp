// Correctly rounded (round to nearest even) f64 ln and cos, as SPEC.md
// requires of the normal distribution. A fast double-word evaluation with a
// proven error bound answers when a rounding test shows its bound cannot
// straddle a rounding boundary; otherwise MPFR at 53 bits, MPFR_RNDN,
// decides. Both paths give the same bits by construction.
#pragma once

#include <optional>
#include <span>

namespace kcs::ref::inputs_detail {

double correctly_rounded_log(double x);    // x > 0; fast path for x in [2^-53, 1]
double correctly_rounded_cos(double theta);  // fast path for theta in [0, 8)

// The same over many arguments, out[k] = ln x[k] (cos θ[k]): the fast path
// evaluates several arguments at once where the CPU has vector
// instructions, with the same bits. Throws std::invalid_argument when the
// sizes differ.
void correctly_rounded_logs(std::span<const double> x, std::span<double> out);
void correctly_rounded_cosines(std::span<const double> theta, std::span<double> out);

// The two paths, exposed for the tests.
std::optional<double> fast_log(double x);
std::optional<double> fast_cos(double theta);
double log_by_mpfr(double x);
double cos_by_mpfr(double theta);

// The relative error bound the fast paths' rounding test assumes. The
// analyses in correctly_rounded.cpp prove errors below 2^-66 (ln) and
// 2^-69 (cos); the test allows 16 and 128 times more.
inline constexpr double kFastPathErrorBound = 0x1p-62;

}  // namespace kcs::ref::inputs_detail
