// Decides RN(f(x)) from the double approximation when its error interval
// rounds to a single value of the format.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
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

// The same for f32, inline for the batch: the interval of
// rounding_decision.cpp, its ends rounded by the conversion to float (RN,
// overflow to infinity, subnormals kept: encode(Format::f32, v) exactly).
inline std::optional<std::uint32_t> decide_f32_from_double(DoubleApproximation approximation) {
    const double a = approximation.magnitude;
    const std::uint32_t sign = approximation.negative ? 0x8000'0000u : 0u;
    if (std::isnan(a)) return std::nullopt;
    if (std::isinf(a)) return sign | 0x7F80'0000u;
    const double width = 2.0 * kRelativeErrorBound * a + 2.0 * kAbsoluteErrorBound;
    const auto lo = std::bit_cast<std::uint32_t>(static_cast<float>(std::max(a - width, 0.0)));
    if (lo != std::bit_cast<std::uint32_t>(static_cast<float>(a + width))) return std::nullopt;
    return sign | lo;
}

}  // namespace kcs::ref::unary_detail
