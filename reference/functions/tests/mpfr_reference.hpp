// The tests' own reference: each function evaluated by MPFR at 200 bits
// (round to nearest at every step) and rounded to the format by MPFR's
// exponent-range emulation (mpfr_check_range + mpfr_subnormalize). It
// shares nothing with the library's evaluation (no double path, no
// enclosure, no round-to-odd), so an agreement is evidence for both.
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::testing {

// Encoding of RN(f(x)) in `format` for a finite nonzero x in f's domain
// (log and rsqrt: x > 0).
std::uint32_t mpfr_reference_bits(UnaryFunction function, Format format, double x);

}  // namespace kcs::ref::testing
