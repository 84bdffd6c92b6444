// The judging of C-EXC-01 (spec/v1/classes/C-EXC-01.yaml) for every
// operator: each judged output element with the class its y* requires
// (ieee_special model, tolerance/ieee_special.hpp), counted per kind of
// mismatch and per probe, and the case's signature with its first witness.
// special_values.cpp and attention_special_values.cpp build the probes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "../tolerance/ieee_special.hpp"
#include "kcs/harness/probe.hpp"

namespace kcs::suites::exactness {

struct SpecialElement {
    std::size_t index;  // in its invocation's output
    SpecialExpectation expected;
    double y_star;  // the oracle's value (NaN for a NaN row, 0 for a masked position)
    std::string probe;
    // Where the definition is a copy (gather): the bits the element must
    // have; of the right class but other bits, it is not_a_copy.
    std::optional<std::uint32_t> copy_of = std::nullopt;
};

// One invocation: its output, the elements judged in it and the evidence
// about the inputs an element depends on.
struct SpecialBatch {
    harness::HostTensor output;
    std::vector<SpecialElement> elements;
    std::function<std::vector<std::string>(std::size_t)> inputs_of;
};

harness::CaseResult judge_special_batches(const harness::ProbeContext& context, const std::vector<SpecialBatch>& batches);

}  // namespace kcs::suites::exactness
