// Special values of the seven functions. unary.yaml: "Special values follow
// the limits of f, never a literal evaluation of its formula: NaN gives NaN;
// exp(-inf) = +0, exp(+inf) = +inf; log(+-0) = -inf, log(x < 0) = NaN,
// log(+inf) = +inf; tanh(+-inf) = erf(+-inf) = +-1; sigmoid(-inf) = +0,
// sigmoid(+inf) = 1; gelu(-inf) = -0, gelu(+inf) = +inf; rsqrt(+-0) = +-inf,
// rsqrt(x < 0) = NaN, rsqrt(+inf) = +0. Odd functions keep the sign of zero
// (tanh, erf and gelu of -0 are -0)." Every line below cites its clause.
//
// NaN results: the format's positive quiet NaN with an empty payload. The
// catalog accepts any NaN for a NaN cr (SPEC.md, ulp_table and ieee_special:
// "any payload"), so the oracle returns one canonical NaN and never depends
// on the input's payload or on whether it was signalling.
#include "special_values.hpp"

#include <cmath>

#include "format_constants.hpp"

namespace kcs::ref::unary_detail {
namespace {

std::optional<std::uint32_t> exp_special(const FormatConstants& c, double x) {
    if (x == -INFINITY) return c.positive_zero;     // exp(-inf) = +0
    if (x == INFINITY) return c.positive_infinity;  // exp(+inf) = +inf
    if (x == 0.0) return c.one;                     // exp(+-0) = 1, exact
    return std::nullopt;
}

std::optional<std::uint32_t> log_special(const FormatConstants& c, double x) {
    if (x == 0.0) return c.negative_infinity;       // log(+-0) = -inf
    if (x < 0.0) return c.quiet_nan;                // log(x < 0) = NaN, -inf included
    if (x == INFINITY) return c.positive_infinity;  // log(+inf) = +inf
    if (x == 1.0) return c.positive_zero;           // log(1) = +0 exactly (RN of 0 is +0)
    return std::nullopt;
}

// tanh and erf: odd, bounded by 1 in magnitude.
std::optional<std::uint32_t> odd_saturating_special(const FormatConstants& c, double x) {
    if (x == INFINITY) return c.one;                       // tanh(+inf) = erf(+inf) = 1
    if (x == -INFINITY) return c.one | c.sign_mask;        // tanh(-inf) = erf(-inf) = -1
    if (x == 0.0) return std::signbit(x) ? c.negative_zero : c.positive_zero;  // keeps -0
    return std::nullopt;
}

std::optional<std::uint32_t> gelu_special(const FormatConstants& c, double x) {
    if (x == -INFINITY) return c.negative_zero;     // gelu(-inf) = -0 (x * Phi(x) -> 0 from below)
    if (x == INFINITY) return c.positive_infinity;  // gelu(+inf) = +inf
    if (x == 0.0) return std::signbit(x) ? c.negative_zero : c.positive_zero;  // keeps -0
    return std::nullopt;
}

std::optional<std::uint32_t> sigmoid_special(Format format, const FormatConstants& c, double x) {
    if (x == -INFINITY) return c.positive_zero;  // sigmoid(-inf) = +0
    if (x == INFINITY) return c.one;             // sigmoid(+inf) = 1
    if (x == 0.0) return encode(format, 0.5);    // sigmoid(+-0) = 1/2 exactly (no signed result)
    return std::nullopt;
}

std::optional<std::uint32_t> rsqrt_special(const FormatConstants& c, double x) {
    if (x == 0.0) return std::signbit(x) ? c.negative_infinity : c.positive_infinity;  // rsqrt(+-0) = +-inf
    if (x < 0.0) return c.quiet_nan;                // rsqrt(x < 0) = NaN, -inf included
    if (x == INFINITY) return c.positive_zero;      // rsqrt(+inf) = +0
    // rsqrt(4^k) = 2^-k needs no case here: sqrt and the division are exact
    // in double there, and the double path decides an exact value.
    return std::nullopt;
}

}  // namespace

std::optional<std::uint32_t> special_value(UnaryFunction function, Format format, double x) {
    const FormatConstants c = constants_of(format);
    if (std::isnan(x)) return c.quiet_nan;  // NaN gives NaN, for every function
    switch (function) {
        case UnaryFunction::exp: return exp_special(c, x);
        case UnaryFunction::log: return log_special(c, x);
        case UnaryFunction::tanh:
        case UnaryFunction::erf: return odd_saturating_special(c, x);
        case UnaryFunction::gelu: return gelu_special(c, x);
        case UnaryFunction::sigmoid: return sigmoid_special(format, c, x);
        case UnaryFunction::rsqrt: return rsqrt_special(c, x);
    }
    return std::nullopt;
}

}  // namespace kcs::ref::unary_detail
