// Gather problems as the catalog generator draws them (C-EXC-02's protocol
// and the basic functional test): the table [R, C] from normal(0, 1)
// (input 0) and the indices from the integers in [0, R - 1] (input 1,
// stream 2^16).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
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

// A call of `shape` with tensors of the right dtypes and no bytes: what the
// support phase asks supports() about.
harness::Invocation declared_gather(const harness::Instance& instance, const GatherShape& shape);

// The exact result of the problem's own indices, as output bits.
std::vector<std::uint64_t> gathered_bits(const GatherProblem& problem);
// The same as the tensor a gather returns: [N, C] of the table's dtype.
harness::HostTensor gathered(const GatherProblem& problem);

// ---- how C-EXC-02's gather probe (gather_policy.cpp) reads a call's rows

// Row `position` of `out` against table row `source` (a row of +0 when
// source < 0): the first column whose bits differ, if any.
std::optional<std::int64_t> row_differs(const GatherProblem& problem, const harness::HostTensor& out,
                                        std::int64_t position, std::int64_t source);

// The wrong rows of an in-range call: how many are the previous call's row
// at their position, bit for bit (stale: a result left from that call), and
// the first other wrong row's position (altered).
struct WrongRows {
    std::size_t stale = 0;
    std::optional<std::int64_t> altered;
};
WrongRows wrong_rows(const GatherProblem& current, const harness::HostTensor& out,
                     const harness::HostTensor& previous_out);

// Under oob_policy raise, an out-of-range call that returned success:
// zero-rows-under-raise where the row at `position` is zeros of either sign
// (a bounds-checked load's silent zero), policy-mismatch for any other row.
std::string raise_departure(const harness::HostTensor& out, std::int64_t position, std::int64_t columns);

// The case's signature from its departures (C-EXC-02 selected_when): the
// one kind every departure shares, else policy-mismatch, the class's "any
// other departure". Requires a departure.
std::string departure_signature(const std::vector<std::string>& departures);

}  // namespace kcs::suites
