// What the C-CMP-02 probes (subnormal_handling.cpp, norm_subnormals.cpp,
// pointwise_subnormals.cpp) share: the flushing oracle of exact probes and
// the grid of subnormals; a batch is one invocation with the output elements it
// distinguishes (y_pres != y_flush), each with the side its subnormals are
// on; the batches of a case are run, every element classified as pres,
// flush or neither (bitwise on exact probes, by kind on function probes)
// and judged by subnormal_policy against the subnormals claim.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "../tolerance/subnormal_policy.hpp"
#include "exactness_common.hpp"
#include "kcs/harness/probe.hpp"

namespace kcs::suites::subnormal_batches {

// One distinguishing output element and what the claim allows there.
struct Expectation {
    std::size_t index = 0;  // in the batch's output
    SubnormalSide side = SubnormalSide::output;
    double y_pres = 0;
    double y_flush = 0;
    bool exact = true;  // exact probe (bitwise) or function probe (kind; y_flush exact: a zero or an infinity)
};

// One invocation of the operator with the elements it distinguishes.
struct Batch {
    std::string name;
    std::vector<harness::HostTensor> inputs;
    std::vector<std::int64_t> output_shape;
    std::vector<Expectation> elements;
    std::function<std::vector<std::string>(std::size_t)> inputs_of;  // evidence for an output element
};

// A shape [rows, L] of the row operators' `shapes` (libraries choose kernels
// by row count and length), and the instance's list of them, each row at
// least `shortest_row` long and a multiple of `row_multiple` (else
// std::invalid_argument naming the instance and `why`).
struct RowDims {
    std::size_t rows, length;
    std::string text() const;  // "[8x64]"
};
std::vector<RowDims> row_dims(const harness::Instance& instance, std::size_t shortest_row, const std::string& why,
                              std::size_t row_multiple = 1);

// Runs every batch with elements and judges them together; throws
// std::logic_error when no element distinguishes the policies.
harness::CaseResult judge_batches(harness::ProbeContext& context, std::vector<Batch> batches);

// C-CMP-02's function probes keep |y_pres| at least 8 times the largest
// C-CMP-01 entry of the output dtype, counted in smallest subnormals, rounded
// up to a power of two as the class's derivation states it (2^-140 in f32,
// 2^-19 in f16, 2^-128 in bf16): the smallest |y_pres| a function probe may use.
double smallest_function_probe_value(const harness::ProbeContext& context, const exactness::ConfigFormats& f);

// An output-side element of a function probe: y_pres rounds into the output
// dtype's subnormal range with that margin (`smallest`) to spare on both
// sides, so that every value within C-CMP-01's allowance of it is
// subnormal too, neither a zero nor normal, and flushing tells on it.
bool inside_subnormal_range(ref::Format out, double y_pres, double smallest);

// ---------------------------------------------------------------- the oracle of exact probes

bool is_subnormal(ref::Format f, double v);

// A subnormal input read as a zero of its sign.
double flush_input(ref::Format in, double v);

// A result rounded once to the output dtype, then a subnormal replaced by zero.
double flushed_result(ref::Format out, double v);

// y_pres must be exact: the honoured result is a value of the output dtype
// (std::logic_error naming `probe` otherwise).
double exact_result(ref::Format out, double v, const std::string& probe);

SubnormalSide side_of(bool subnormal_input, bool subnormal_result);

// ---------------------------------------------------------------- the grid of subnormals

// Integers drawn in order from stream 2^16 of input tensor 0; each draw
// takes the next element index, so the sequence is reproducible.
class GridDraws {
public:
    explicit GridDraws(std::uint64_t seed) : seed_(seed) {}
    std::int64_t next(std::int64_t lo, std::int64_t hi);

private:
    std::uint64_t seed_;
    std::uint64_t index_ = 0;
};

// The subnormal grid of a format: k * smallest subnormal, 1 <= |k| <= largest_k.
struct Grid {
    double step;             // the smallest subnormal
    std::int64_t largest_k;  // 2^(p-1) - 1: the largest subnormal's multiple
    double tiny;             // the smallest normal
};
Grid grid_of(ref::Format f);

}  // namespace kcs::suites::subnormal_batches
