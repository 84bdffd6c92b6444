// Oracle of cast: y[i] = convert(x[i]) from one format to another.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {

// x holds values of `from` (NaN and infinities allowed); otherwise
// std::invalid_argument. Exact: widening returns the value itself (signed
// zeros, subnormals, infinities kept); narrowing returns RN_to(x), the IEEE
// conversion with ties to even, overflow to the infinity of x's sign, the
// subnormals of `to` honoured, -0 kept (kcs_numerics' round_to). Any NaN
// gives a quiet NaN. One rounding, never two: the input is exact in f64.
double cast_oracle(double x, Format from, Format to);
std::vector<double> cast_oracle(std::span<const double> x, Format from, Format to);

}  // namespace kcs::ref
