// What the pointwise probes (unary, elementwise, cast) of C-EXC-01, C-CMP-02
// and C-CMP-03 share: the operands an instance reads, calls whose drawn
// operands hold a probe's chosen encodings at the first, middle and last
// elements, the operator's definition evaluated exactly on every element,
// and the evidence naming an element's operands.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/probe.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::suites::pointwise {

// The operands the instance's operator reads, in call order: x for unary
// and cast; a and b for elementwise, and c for mul_add (the only function
// of arity 3). Their catalog dtypes and names come from the operator file.
struct Operands {
    std::vector<std::string> names;
    std::vector<std::string> dtypes;
    std::size_t size() const { return names.size(); }
};
Operands operands_of(const harness::Instance& instance);

// One operand of a probe: an encoding of its dtype, or nullopt where the
// drawn value stays.
using Operand = std::optional<std::uint32_t>;

struct PlacedProbe {
    std::string label;              // "+inf, drawn", "add(-0, +0)"
    std::vector<Operand> operands;  // one per operand of the instance
};

// The elements a placed probe takes in a call of `length`: first, middle
// (floor(length / 2)) and last.
std::array<std::size_t, 3> placed_positions(std::size_t length);

// The inputs of one call of `length` elements: operand k drawn from
// normal(0, 1) as input tensor k with the case seed, the probe's encodings
// at its placed positions.
std::vector<harness::HostTensor> placed_inputs(const harness::ProbeContext& context,
                                               std::size_t length, const PlacedProbe& probe);

// Tensors of [n] elements holding `columns[k]` (one vector of values per
// operand, rounded to nearest even into the operand's dtype).
std::vector<harness::HostTensor> value_inputs(const harness::Instance& instance,
                                              const std::vector<std::vector<double>>& columns);

// The operator's definition on every element of `inputs`, each value the
// exact result rounded once to the output dtype (the reference oracles).
// For mul_add, `fused` holds the single-rounding values fp_contract: on
// also admits; it is empty for every other operator and function.
struct Evaluations {
    std::vector<double> value;
    std::vector<double> fused;
};
Evaluations evaluate(const harness::Instance& instance, const std::vector<harness::HostTensor>& inputs);

// Element i's operands for evidence: "a[5]=0x3c00", "b[5]=0x7c00".
std::vector<std::string> element_inputs(const Operands& operands, const std::vector<harness::HostTensor>& inputs,
                                        std::size_t i);

}  // namespace kcs::suites::pointwise
