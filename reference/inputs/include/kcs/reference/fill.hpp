// Filling a tensor from a distribution: element i of tensor t in stream a
// is drawn from philox_block(seed, t, a, i), so any range of elements can be
// generated alone and in any order (a caller may split a tensor in chunks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kcs/reference/distributions.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/philox.hpp"

namespace kcs::ref {

// Where a tensor's values come from.
struct TensorStream {
    std::uint64_t seed;                   // the case seed
    std::uint32_t tensor;                 // 0-based position in the operator's input list
    std::uint32_t stream = kValueStream;  // a: 0 for tensor values, >= 2^16 for auxiliary draws
};

// The encoding (low 16 bits for f16 and bf16) of element `index`:
// RN_t of the distribution's f64 value, rounded once.
std::uint32_t element_bits(Format format, const Distribution& d, const TensorStream& where,
                           std::uint64_t index);

// Elements first_index .. first_index + out.size() - 1.
void fill_bits(Format format, const Distribution& d, const TensorStream& where,
               std::uint64_t first_index, std::span<std::uint32_t> out);

// Elements 0 .. count - 1.
std::vector<std::uint32_t> fill_bits(Format format, const Distribution& d, const TensorStream& where,
                                     std::size_t count);

// The same elements as the values they encode (every value of f32, f16
// and bf16 is an f64).
std::vector<double> fill_values(Format format, const Distribution& d, const TensorStream& where,
                                std::size_t count);

// Integer tensors (indices, bit patterns drawn as integers).
void fill_integers(const Integers& d, const TensorStream& where, std::uint64_t first_index,
                   std::span<std::int64_t> out);
std::vector<std::int64_t> fill_integers(const Integers& d, const TensorStream& where, std::size_t count);

}  // namespace kcs::ref
