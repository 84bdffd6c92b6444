// The exactness probes of C-PRC-03 (spec/v1/classes/C-PRC-03.yaml) as
// matmul problems C = A * B with y* known in closed form, built in
// declared_compute_precision.cpp. Attention (attention_compute_precision.cpp)
// uses the measured matrix X of the identity, low-bit and range probes as
// its V, behind scores that select one key per query.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kcs/reference/formats.hpp"

namespace kcs::suites::precision {

// One exactness probe: C = A * B with y* known in closed form.
struct ExactnessProbe {
    std::string name;
    std::size_t measured_operand = 0;  // the operand whose precision the probe measures (0: A, 1: B)
    std::int64_t m = 0, k = 0, n = 0;
    std::vector<double> a, b;       // A [m, k], B [k, n]
    std::vector<double> expected;   // y*, [m, n]
    std::vector<int> operand_bits;  // per output: significant bits of the measured operand's entry
    std::vector<int> low_bit_j;     // per output: j of a low-bit probe, 0 elsewhere
    bool range = false;
};

// A matmul problem's extents: A [m, k], B [k, n].
struct MatmulShape {
    std::int64_t m, k, n;
};

// X * I (operand 0: X [m, k], I [k, n]) or I * X (operand 1: I [m, k], X
// [k, n]), I ones on its diagonal and zeros elsewhere: y* is X cut to
// [m, n] and padded with zeros, X random finite normal values of `in` whose
// magnitudes lie in the normal range of `out`.
ExactnessProbe identity_probe(ref::Format in, ref::Format out, MatmulShape shape, std::uint64_t seed,
                              std::size_t operand);

// Blocks j = 1 .. p_in - 1 of +-(1 + 2^-j) 2^e: rows of A times I (operand
// 0), or columns of B under I (operand 1). y* is the block itself.
ExactnessProbe low_bit_probe(int input_precision, std::int64_t size, std::uint64_t seed, std::size_t operand);

// X times I (f32 inputs), with one range entry per row, on the diagonal: in
// [6.6e4, 1e5] in even rows, in [2^16, 2^100) of either sign in odd rows;
// the other entries uniform(1, 2), inside f16's range and never zero. A
// range entry meets only the ones and zeros of I: its own output shows it as
// the kernel saw it (inf or 65504 after a conversion to f16), while the
// zeros it meets in the other columns turn those outputs NaN.
ExactnessProbe range_probe(std::int64_t size, std::uint64_t seed);

}  // namespace kcs::suites::precision
