// The bitwise_equal tolerance model (spec/SPEC.md section 3): every pair of
// outputs the protocol compares must be identical bit patterns, signs of
// zeros and NaN payloads included. The key figure is the number of
// differing elements. Used by C-ORD-03 (batch invariance).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kcs/harness/guarded_device.hpp"

namespace kcs::suites::tolerance {

struct BitwiseDifference {
    std::size_t element = 0;  // position within the compared range
    std::uint64_t expected_bits = 0;
    std::uint64_t got_bits = 0;
};

struct BitwiseComparison {
    std::size_t compared = 0;
    std::size_t differing = 0;                 // the key figure
    std::vector<BitwiseDifference> differences;  // the first kKeptDifferences, for evidence
    // The differing element whose values lie furthest apart (a NaN against
    // a number counts as infinitely far): the worst element of the evidence.
    BitwiseDifference widest;
    double widest_distance = 0;

    static constexpr std::size_t kKeptDifferences = 16;  // evidence size only, never a bound
    bool equal() const { return differing == 0; }
};

// One run of elements of a tensor: `count` elements from `first`.
struct ElementRange {
    const harness::HostTensor* tensor = nullptr;
    std::size_t first = 0;
    std::size_t count = 0;
};

// Compares expected.tensor[expected.first + i] with got.tensor[got.first + i]
// bit for bit, for i < expected.count. Throws std::invalid_argument when the
// ranges differ in length or dtype, or leave their tensors.
BitwiseComparison compare_bitwise(const ElementRange& expected, const ElementRange& got);

// A whole tensor as a range.
inline ElementRange whole(const harness::HostTensor& tensor) { return {&tensor, 0, tensor.elements()}; }

}  // namespace kcs::suites::tolerance
