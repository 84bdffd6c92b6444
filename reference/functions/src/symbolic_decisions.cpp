// Finite arguments whose correctly rounded result follows from analysis.
// Both cases are gelu's; every other function's near-boundary inputs are
// isolated points that the MPFR path decides.
#include <cmath>

#include "format_constants.hpp"
#include "special_values.hpp"

namespace kcs::ref::unary_detail {
namespace {

// Below this, gelu(x) rounds to -0 in every format. With Phi the standard
// normal distribution and phi its density, the Mills ratio bound
// Phi(x) < phi(x)/|x| for x < 0 gives |gelu(x)| = |x|*Phi(x) < phi(x) =
// e^(-x^2/2)/sqrt(2*pi) <= e^-200/2.5 < 2^-288 at x <= -20, far below half
// the smallest subnormal of any format (2^-150 for f32, 2^-134 for bf16,
// 2^-25 for f16): RN gives zero, with the sign of the negative result.
// Deciding it here also keeps the double path away from erfc's argument
// amplification (double_evaluation.cpp).
constexpr double kGeluUnderflowsEverywhere = -20.0;

// Above this magnitude (and below 1) the double path is used for gelu.
// For 0 < |x| < 2^-30: gelu(x) - x/2 = x*(Phi(x) - 1/2), and Phi(x) - 1/2 has
// the sign of x, so gelu(x) > x/2 strictly, and gelu(x) - x/2 < x^2*phi(0) <
// 0.4*x^2, i.e. at most 0.8*|x| < 2^-29 relative to x/2. x/2 is exact in
// double (every format's x >= 2^-149 in magnitude), and it is either a value
// of the format or, below the normal range where halving drops a bit, a
// midpoint of two. The spacing of the format around x/2 is at least 2^-25
// relative (2^-24 above, 2^-25 below a power of two for f32; more for f16,
// bf16 and subnormals), so gelu(x) lies strictly between x/2 and the next
// rounding boundary above it. The double just above x/2, nextafter(x/2,
// +inf), lies in that same open interval, so RN(gelu(x)) = RN(nextafter(x/2,
// +inf)): x/2 when it is representable, the neighbour toward +inf of the
// midpoint when it is not (for negative x that may be -0, the sign kept).
// The double interval cannot see this: the relative gap to the midpoint,
// about |x|, is below any error margin for |x| < 2^-40, the whole subnormal
// range of f32 and bf16 inputs.
constexpr double kGeluTinyArgument = 0x1p-30;

std::optional<std::uint32_t> gelu_decision(Format format, double x) {
    if (x <= kGeluUnderflowsEverywhere) return constants_of(format).negative_zero;
    if (std::fabs(x) < kGeluTinyArgument) {
        return encode(format, std::nextafter(0.5 * x, INFINITY));
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::uint32_t> symbolic_decision(UnaryFunction function, Format format, double x) {
    if (function == UnaryFunction::gelu) return gelu_decision(format, x);
    return std::nullopt;
}

}  // namespace kcs::ref::unary_detail
