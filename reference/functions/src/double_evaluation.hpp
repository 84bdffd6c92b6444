// f evaluated in double with the C library, with the error bound that lets
// the rounding decision trust it.
#pragma once

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::unary_detail {

// f(x) = (negative ? -1 : 1) * m, with the exact magnitude m within
//   |magnitude - m| <= kRelativeErrorBound * m + kAbsoluteErrorBound.
// The sign is f's own sign at x, known from analysis, not from the
// evaluation (so that an underflowed magnitude keeps its sign).
struct DoubleApproximation {
    double magnitude;
    bool negative;
};

// 2^-40 relative: 2^3 times the largest bound double_evaluation.cpp derives
// (gelu for negative x, below 2^-43) and 2^9 or more times the others.
inline constexpr double kRelativeErrorBound = 0x1p-40;

// 2^-1000 absolute: covers the results the C library returns in double's
// subnormal range (below 2^-1022), where its error is absolute rather than
// relative; 2^850 times smaller than half the smallest subnormal of any
// format (2^-150), so it decides nothing near a boundary of the formats.
inline constexpr double kAbsoluteErrorBound = 0x1p-1000;

// Precondition: x finite, in f's domain, and neither special_value nor
// symbolic_decision decides it.
DoubleApproximation approximate_in_double(UnaryFunction function, double x);

}  // namespace kcs::ref::unary_detail
