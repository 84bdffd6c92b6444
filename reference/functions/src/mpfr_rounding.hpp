// Rounds an MPFR number of any precision to a format, exactly, without
// touching MPFR's exponent range (which is per-thread state shared with the
// caller).
#pragma once

#include <mpfr.h>

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::unary_detail {

// The encoding of RN(v) in `format`, ties to even, overflow to infinity,
// underflow to subnormals and signed zero. v must not be NaN.
std::uint32_t round_to_format(mpfr_srcptr v, Format format);

}  // namespace kcs::ref::unary_detail
