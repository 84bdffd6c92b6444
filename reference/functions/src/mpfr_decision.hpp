// The fallback: Ziv's strategy on MPFR enclosures.
#pragma once

#include <cstdint>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::unary_detail {

// The encoding of RN(f(x)) in `format`, decided by enclosing f(x) at 256
// bits, then 512, ..., 4096, until both ends of the enclosure round to the
// same value. Throws std::runtime_error if 4096 bits do not decide.
// Precondition: x finite, in f's domain, f(x) != 0.
std::uint32_t decide_with_mpfr(UnaryFunction function, Format format, double x);

}  // namespace kcs::ref::unary_detail
