// Checks that an argument is a value of its format, in either form.
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::unary_detail {

// x_bits decoded; std::invalid_argument if it has bits beyond the format.
double decode_argument(Format format, std::uint32_t x_bits);

// x's encoding; std::invalid_argument unless x is a value of the format
// (every NaN is accepted: the results do not depend on its payload).
std::uint32_t encode_argument(Format format, double x);

}  // namespace kcs::ref::unary_detail
