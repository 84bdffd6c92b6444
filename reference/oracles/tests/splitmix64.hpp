// The shared SplitMix64 test stream, and test inputs rounded to a format.
#pragma once

#include "kcs/reference/formats.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::ref::test {

using testing::SplitMix64;

// The test inputs are values of the operator's dtypes: f32 unless a test says.
inline double to_f32(double x) { return round_to(Format::f32, x); }

}  // namespace kcs::ref::test
