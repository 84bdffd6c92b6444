// Decides RN(f(x)) from the double approximation when its error interval
// rounds to a single value of the format.
#pragma once

#include <cstdint>
#include <optional>

#include "double_evaluation.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref::unary_detail {

// The encoding of RN(f(x)) in `format` when every real within the error
// bound of `approximation` rounds to the same value; nullopt when the
// interval contains a rounding boundary (a midpoint between two values of
// the format, or the overflow threshold).
std::optional<std::uint32_t> decide_from_double(Format format, DoubleApproximation approximation);

}  // namespace kcs::ref::unary_detail
