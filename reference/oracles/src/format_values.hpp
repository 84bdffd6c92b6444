// Private helpers of the oracles that take values of a narrow format.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::detail {

inline bool is_value_of(Format format, double x) {
    return !std::isfinite(x) || round_to(format, x) == x;
}

// Throws std::invalid_argument naming the operand, its position and format.
void require_value_of(std::string_view op, std::string_view operand, std::size_t index,
                      Format format, double x);

// RN_format(x) with a canonical quiet NaN for any NaN, so that no oracle
// depends on how a payload is treated.
inline double round_to_format(Format format, double x) {
    if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
    return round_to(format, x);
}

}  // namespace kcs::ref::detail
