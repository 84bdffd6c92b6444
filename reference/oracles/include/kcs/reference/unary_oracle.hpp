// Oracle of the unary operator: y[i] = f(x[i]) for f in exp, log, tanh,
// erf, gelu, sigmoid, rsqrt.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref {

// x holds values of `format` (any NaN accepted; otherwise
// std::invalid_argument). Exact: y*[i] = RN_format(f(x[i])), the correctly
// rounded result in the operator's output format (= input format), with the
// special values of unary.yaml; a NaN result is a quiet NaN. Computed by
// kcs_functions (double evaluation with a proven error bound, MPFR where
// that bound straddles a rounding boundary).
double unary_oracle(UnaryFunction function, double x, Format format);
std::vector<double> unary_oracle(UnaryFunction function, std::span<const double> x, Format format);

}  // namespace kcs::ref
