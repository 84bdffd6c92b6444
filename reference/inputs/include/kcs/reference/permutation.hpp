// Seeded permutations of SPEC.md section 4 (Fisher-Yates driven by Philox).
#pragma once

#include <cstdint>
#include <vector>

namespace kcs::ref {

// The largest j whose stream 2 + j stays below the auxiliary streams (2^16).
inline constexpr std::uint32_t kMaxPermutation = (std::uint32_t{1} << 16) - 3;

// Permutation j of [0, n): start from the identity; for i = n-1 down to 1,
// r = the integer in [0, i] drawn from the block at counter
// (lo32(i), hi32(i), 0, 2 + j) under key `seed`; swap positions i and r.
// Element p of the result is the index placed at position p.
// Throws std::invalid_argument if j > kMaxPermutation.
std::vector<std::uint64_t> permutation(std::uint64_t seed, std::uint64_t n, std::uint32_t j);

}  // namespace kcs::ref
