// Standard normal draws z (SPEC.md section 4) kept for reuse. A probe draws
// the same tensors for every dtype configuration of an instance (seed,
// tensor and stream fix z; only the final rounding RN_t differs), and one z
// costs a correctly rounded ln and cos, about 250 ns: a run that draws a
// tensor again takes it from here. Thread-safe; bounded in bytes, least
// recently used first out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "kcs/reference/fill.hpp"

namespace kcs::ref::inputs_detail {

// z of elements first .. first + count - 1 of `where`.
std::shared_ptr<const std::vector<double>> standard_normals(const TensorStream& where, std::uint64_t first,
                                                            std::size_t count);

// Draws shorter than this are computed each time (cheap, and many).
inline constexpr std::size_t kNormalCacheMinimum = 4096;
// The cache's budget: a few of the largest tensors of a full-depth probe.
inline constexpr std::size_t kNormalCacheBytes = std::size_t{256} << 20;

}  // namespace kcs::ref::inputs_detail
