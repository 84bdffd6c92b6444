// What the C-CMP-02 probes (subnormal_handling.cpp, norm_subnormals.cpp)
// share: a batch is one invocation with the output elements it
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
    bool exact = true;  // exact probe (bitwise) or function probe (kind)
};

// One invocation of the operator with the elements it distinguishes.
struct Batch {
    std::string name;
    std::vector<harness::HostTensor> inputs;
    std::vector<std::int64_t> output_shape;
    std::vector<Expectation> elements;
    std::function<std::vector<std::string>(std::size_t)> inputs_of;  // evidence for an output element
};

// Runs every batch with elements and judges them together; throws
// std::logic_error when no element distinguishes the policies.
harness::CaseResult judge_batches(harness::ProbeContext& context, std::vector<Batch> batches);

// C-CMP-02's function probes keep |y_pres| at least 8 times the largest
// C-CMP-01 entry of the output dtype, counted in smallest subnormals, rounded
// up to a power of two as the class's derivation states it (2^-140 in f32,
// 2^-19 in f16, 2^-128 in bf16): the smallest |y_pres| a function probe may use.
double smallest_function_probe_value(const harness::ProbeContext& context, const exactness::ConfigFormats& f);

}  // namespace kcs::suites::subnormal_batches
