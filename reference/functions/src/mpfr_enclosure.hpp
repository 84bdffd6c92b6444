// A rigorous enclosure lo <= f(x) <= hi from MPFR's directed roundings.
#pragma once

#include <mpfr.h>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::unary_detail {

// Sets lo and hi (at their own precision) so that lo <= f(x) <= hi.
// Precondition: x finite and in f's domain (log: x > 0; rsqrt: x > 0).
void enclose(UnaryFunction function, double x, mpfr_ptr lo, mpfr_ptr hi);

}  // namespace kcs::ref::unary_detail
