// The f32 arguments the tests check for each function: special values,
// hard cases at the edges of each function's range, and 10^5 sampled
// arguments. Deterministic: the same list on every run and machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::testing {

inline constexpr std::size_t kSampledBitPatterns = 60000;  // finite patterns, uniform over [0, 2^32)
inline constexpr std::size_t kSampledUniform16 = 20000;    // uniform(-16, 16)
inline constexpr std::size_t kSampledFunctionRange = 20000;  // uniform over f's working range

// Special values: zeros, infinities, NaNs (quiet, signalling, payloads,
// both signs), the smallest and largest subnormals and normals, +-1.
std::vector<std::uint32_t> f32_special_inputs();

// Edge cases: the neighbours of 1, 2^-5, 0.5, 2, 4 and 9 (usual switch
// points of approximations) and of each threshold of f where the result
// overflows, turns subnormal, underflows or saturates; for exp RN(k ln 2)
// and RN((k + 1/2) ln 2) for every k of its finite range; for log and rsqrt
// the powers of two.
std::vector<std::uint32_t> f32_hard_inputs(UnaryFunction function);

// The sampled arguments (kSampled* above), seeded per function.
std::vector<std::uint32_t> f32_sampled_inputs(UnaryFunction function);

}  // namespace kcs::ref::testing
