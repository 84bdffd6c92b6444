// The double path over arrays: f evaluated with SLEEF's vectorised
// functions where the CPU has AVX-512F or AVX2 (else the C library, as in
// double_evaluation.cpp), for the batch forms that exhaustive sweeps use.
//
// Same formulas and same error bound as double_evaluation.cpp. Its bounds
// assume the documented errors of glibc (exp 1, log 1, tanh 2, erf 1,
// erfc 5 ulp); SLEEF's u10 functions are within 1.0 ulp and erfc (u15)
// within 1.5 ulp (SLEEF's documentation, checked by its own tests against
// MPFR), never more than glibc's, so kRelativeErrorBound covers these
// evaluations with the same margins. The bound is only a filter: an input
// whose interval touches a rounding boundary goes to MPFR, so the choice of
// library changes which inputs MPFR decides, never a result.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::unary_detail {

// Whether x is an argument of the double path: finite, non-zero, in f's
// domain and not decided symbolically (special_values.cpp,
// symbolic_decisions.cpp). The batch sends every other argument through
// the scalar stages. Inline: the batch asks it of every element.
// Written with & rather than && so that loops over it vectorise.
inline bool plain_argument(UnaryFunction function, double x) {
    const bool finite_nonzero = (std::fabs(x) <= 0x1.fffffffffffffp+1023) & (x != 0.0);  // not NaN, inf, 0
    switch (function) {
        case UnaryFunction::log: return finite_nonzero & (x > 0.0) & (x != 1.0);
        case UnaryFunction::rsqrt: return finite_nonzero & (x > 0.0);
        // symbolic_decisions.cpp: x <= -20 and |x| < 2^-30 are decided there.
        case UnaryFunction::gelu: return finite_nonzero & (x > -20.0) & (std::fabs(x) >= 0x1p-30);
        default: return finite_nonzero;
    }
}

// The sign of f(x) for a plain argument, known from analysis (as in
// DoubleApproximation::negative).
inline bool result_negative(UnaryFunction function, double x) {
    switch (function) {
        case UnaryFunction::log: return x < 1.0;
        case UnaryFunction::tanh:
        case UnaryFunction::erf:
        case UnaryFunction::gelu: return std::signbit(x);
        default: return false;
    }
}

// magnitude[i] approximates |f(x[i])| within the bound of
// double_evaluation.hpp, for plain arguments x[0 .. n-1].
void approximate_magnitudes(UnaryFunction function, const double* x, double* magnitude, std::size_t n);


}  // namespace kcs::ref::unary_detail

namespace kcs::ref::unary_detail {

// The f32 batch's elements per block.
inline constexpr std::size_t kF32Block = 1024;

// One block of the f32 batch (n <= kF32Block): every element through the
// vector evaluation and the interval decision of rounding_decision.hpp, and
// the bulk cases of special_values.cpp and symbolic_decisions.cpp that an
// exhaustive sweep meets by the billion (log and rsqrt of x < 0: NaN; gelu
// of x <= -20: -0, of 0 < |x| < 2^-30: RN(nextafter(x/2, +inf))), in
// branch-free loops. decided[i] says how: kByDouble or kBySpecialCase (y[i]
// is cr), or kLeftToScalar (the other special values, and intervals that
// straddle a rounding boundary). The tests hold the batch equal to the
// scalar form.
inline constexpr std::uint8_t kLeftToScalar = 0, kByDouble = 1, kBySpecialCase = 2;
void decide_f32_block(UnaryFunction function, const std::uint32_t* x, std::uint32_t* y, std::uint8_t* decided,
                      std::size_t n);

}  // namespace kcs::ref::unary_detail
