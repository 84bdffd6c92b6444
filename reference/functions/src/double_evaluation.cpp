// The double evaluation of each function and the bound on its error.
//
// Source of the bounds: glibc documents the largest known error of each
// libm function in ulps of the result (libm-test-ulps, x86_64, round to
// nearest, double): exp 1, log 1, tanh 2, erf 1, erfc 5, sqrt 0 (IEEE).
// Independent measurements of glibc 2.3x agree (all below 5.5 ulp). An ulp
// of a double result is at most 2^-52 relative, so k ulp is at most
// k*2^-52 relative. Each basic operation (+, *, /) adds at most 2^-53
// relative (unit roundoff). The relative bounds below are all below 2^-43
// (gelu, x < 0) and all others below 2^-49; kRelativeErrorBound = 2^-40
// leaves a factor of 2^3 on the first and 2^9 on the others, for an ulp
// count larger than documented. The margin costs
// nothing in certainty: an input whose interval touches a rounding boundary
// goes to MPFR, which decides it exactly. The unit tests check every f16 and
// bf16 input and 10^5 f32 inputs against an independent 200-bit evaluation.
//
// Inputs are values of f32, f16 or bf16: exact in double, normal in double
// (|x| >= 2^-149), so no argument is rounded before the library sees it,
// except where a formula needs x/sqrt(2) (gelu; bounded below).
#include "double_evaluation.hpp"

#include <cmath>

namespace kcs::ref::unary_detail {
namespace {

constexpr double kOneOverSqrt2 = 0.70710678118654752440;  // RN(1/sqrt 2), 2^-53 relative

// exp: 1 ulp, 2^-52. Results below 2^-1022 (x < -708.4) are double
// subnormals with absolute error <= 2^-1074, inside kAbsoluteErrorBound;
// results above 2^1024 are +inf, and every format overflows far earlier
// (f32 and bf16 at x ~ 88.7), so RN of the infinite interval is +inf as it
// must be.
DoubleApproximation exp_in_double(double x) { return {std::exp(x), false}; }

// log: 1 ulp of the result, 2^-52, including near x = 1 where log(x) ~ x - 1
// (glibc's bound is relative to the result). x > 0 here, x != 1; the sign
// is that of x - 1.
DoubleApproximation log_in_double(double x) { return {std::fabs(std::log(x)), x < 1.0}; }

// tanh: 2 ulp, 2^-51; odd, evaluated on |x|.
DoubleApproximation tanh_in_double(double x) {
    return {std::tanh(std::fabs(x)), std::signbit(x)};
}

// erf: 1 ulp, 2^-52; odd, evaluated on |x|.
DoubleApproximation erf_in_double(double x) {
    return {std::erf(std::fabs(x)), std::signbit(x)};
}

// gelu(x) = x/2 * (1 + erf(x/sqrt 2)) = x/2 * erfc(-x/sqrt 2), with t = x/sqrt 2
// formed as RN(x * RN(1/sqrt 2)): relative error e_t <= 2^-52 (two
// roundings). symbolic_decision has taken |x| < 2^-30 and x <= -20.
//  x > 0: x/2 * (1 + erf(t)). erf's condition number t*erf'(t)/erf(t) is at
//    most 1, so the rounded t costs at most 2^-52 relative in erf; erf's own
//    error 2^-52; relative to 1 + erf(t) >= erf(t) both shrink; the sum adds
//    2^-53, x/2 is exact, the product adds 2^-53: total < 2^-50.
//  x < 0: x/2 * erfc(|t|), erfc because 1 + erf(t) cancels. erfc's
//    condition number is 2*t^2 + O(1) (about 2t*phi(t)/erfc(t) < 2t^2 + 2);
//    with |x| < 20, t^2 < 200, so the rounded t costs at most 402 * 2^-52
//    < 2^-43.3 relative; erfc's own 5 ulp 2^-49.7, the product 2^-53:
//    total < 2^-43.
DoubleApproximation gelu_in_double(double x) {
    const double t = x * kOneOverSqrt2;
    if (x > 0.0) return {0.5 * x * (1.0 + std::erf(t)), false};
    return {-0.5 * x * std::erfc(-t), true};
}

// sigmoid(x) = 1/(1 + e^-x), positive. Evaluated without overflow:
//  x >= 0: 1/(1 + e) with e = exp(-x) <= 1: e's 2^-52 relative error is at
//    most 2^-52 relative in 1 + e, the sum adds 2^-53, the division 2^-53:
//    < 2^-50.4.
//  x < 0:  e/(1 + e) with e = exp(x) < 1: 2^-52 in e, and 2^-52 + 2^-53 in
//    1 + e (as above), the division 2^-53: < 2^-50. When e is a double
//    subnormal (x < -708.4) its absolute error 2^-1074 stays absolute
//    (1 + e >= 1): inside kAbsoluteErrorBound.
DoubleApproximation sigmoid_in_double(double x) {
    if (x >= 0.0) return {1.0 / (1.0 + std::exp(-x)), false};
    const double e = std::exp(x);
    return {e / (1.0 + e), false};
}

// rsqrt(x) = 1/sqrt(x), x > 0 finite: sqrt is correctly rounded (IEEE) and
// the division adds one rounding: < 2^-51.4. Exact where x is a power of 4.
DoubleApproximation rsqrt_in_double(double x) { return {1.0 / std::sqrt(x), false}; }

}  // namespace

DoubleApproximation approximate_in_double(UnaryFunction function, double x) {
    switch (function) {
        case UnaryFunction::exp: return exp_in_double(x);
        case UnaryFunction::log: return log_in_double(x);
        case UnaryFunction::tanh: return tanh_in_double(x);
        case UnaryFunction::erf: return erf_in_double(x);
        case UnaryFunction::gelu: return gelu_in_double(x);
        case UnaryFunction::sigmoid: return sigmoid_in_double(x);
        case UnaryFunction::rsqrt: return rsqrt_in_double(x);
    }
    return {NAN, false};  // unreachable: every function is listed
}

}  // namespace kcs::ref::unary_detail

