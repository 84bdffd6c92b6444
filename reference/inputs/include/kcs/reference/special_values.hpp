// Special-value sets, exhaustive enumerations and out-of-bounds indices of
// SPEC.md section 4.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {

struct SpecialValue {
    std::string_view subset;  // the id in brackets: "zeros", "nans", "ties_to_f16", ...
    std::string_view name;    // what the value is: "+0", "-max subnormal", "+sNaN", ...
    std::uint32_t bits;       // its encoding in the format (low 16 bits for f16 and bf16)
};

// Subset ids in set order. SPEC.md's list comes first; the subsets after
// "near_one" extend it (signalling NaNs, conversion ties and overflow
// edges for the narrower formats); see special_values.cpp for their
// definitions. A subset with no value representable in the format (e.g.
// ties_to_f16 of f16) is empty.
std::span<const std::string_view> special_subset_ids();

// The whole set of a format, subset by subset, in order.
std::vector<SpecialValue> special_values(Format format);

// One subset's encodings, in order. Throws std::invalid_argument for an
// unknown id.
std::vector<std::uint32_t> special_subset(Format format, std::string_view subset);

// Canonical NaNs: qNaN has only the quiet bit set in its significand
// (f32 0x7FC00000, f16 0x7E00, bf16 0x7FC0); sNaN has the quiet bit clear
// and the bit below it set (f32 0x7FA00000, f16 0x7D00, bf16 0x7FA0), the
// pattern of __builtin_nans("") and numeric_limits<float>::signaling_NaN()
// on x86-64 and AArch64.
std::uint32_t quiet_nan_bits(Format format);
std::uint32_t signalling_nan_bits(Format format);

// exhaustive(t): element i has bits i, for i < exhaustive_count(t) = 2^bits.
std::uint64_t exhaustive_count(Format format);
// Elements first .. first + count - 1 (throws std::out_of_range past the end);
// f32 needs ranges, its 2^32 patterns do not fit in one vector comfortably.
std::vector<std::uint32_t> exhaustive(Format format, std::uint64_t first, std::uint64_t count);

// Where a protocol places special values in a tensor of n > 0 elements.
enum class Position { first, middle, last };
std::uint64_t position_index(Position position, std::uint64_t n);  // 0, floor(n/2), n-1

// Index dtypes of the catalog.
enum class IndexType { i32, i64 };

// oob_indices(n, t) = [n, -1, -n-1, max(t), min(t)] for a dimension n.
// Throws std::invalid_argument unless 0 <= n <= max(t) (so -n-1 >= min(t)).
std::array<std::int64_t, 5> oob_indices(std::int64_t n, IndexType type);

}  // namespace kcs::ref
