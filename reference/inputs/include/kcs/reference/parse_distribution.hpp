// Reading the distribution strings of the catalog and of class protocols.
#pragma once

#include <string_view>

#include "kcs/reference/distributions.hpp"

namespace kcs::ref {

// Accepts, with optional blanks around every token:
//   normal(MEAN,STD)  uniform(LO,HI)  integers(LO,HI)  constant(V)  ones
// Real parameters are decimal ("-1", "0.5", "1e4") or C hexadecimal floats
// ("0x1p-4"), each read as the nearest f64; integer parameters are decimal
// integers. Throws std::invalid_argument whose message quotes the text and
// says what is wrong; the result has passed validate().
Distribution parse_distribution(std::string_view text);

}  // namespace kcs::ref
