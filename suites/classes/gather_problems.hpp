// Gather problems as the catalog generator draws them (C-EXC-02's protocol
// and the basic functional test): the table [R, C] from normal(0, 1)
// (input 0) and the indices from the integers in [0, R - 1] (input 1,
// stream 2^16).
#pragma once

#include <cstdint>
#include <vector>

#include "kcs/harness/guarded_device.hpp"
#include "kcs/harness/plan.hpp"

namespace kcs::suites {

struct GatherShape {
    std::int64_t rows = 0, columns = 0, positions = 0;  // R, C, N
};

struct GatherProblem {
    GatherShape shape;
    harness::HostTensor table;
    std::vector<std::int64_t> index;
};

GatherProblem draw_gather(const harness::Instance& instance, const GatherShape& shape, std::uint64_t seed);

// The call on the problem's table with `index` (the problem's own, or an altered copy).
harness::Invocation gather_call(const harness::Instance& instance, const GatherProblem& problem,
                                const std::vector<std::int64_t>& index);

// The exact result of the problem's own indices, as output bits.
std::vector<std::uint64_t> gathered_bits(const GatherProblem& problem);

}  // namespace kcs::suites
