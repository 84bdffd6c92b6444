// The subnormal_policy tolerance model (spec/SPEC.md section 3): the oracle
// gives y_pres (subnormal inputs and results honoured) and y_flush
// (subnormal inputs read as zeros of their sign, subnormal results replaced
// by zero). An element is distinguishing when y_pres != y_flush. Under
// subnormals = preserve every distinguishing element MUST be y_pres; under
// flush every one MUST be y_flush (a flushed zero of either sign): all or
// nothing. Exact probes compare bitwise; function probes (softmax and the
// other approximated operators) compare by kind: y_pres's kind is finite,
// nonzero and of y_pres's sign, and y_flush is exact (a zero, or an
// infinity for rsqrt and log).
//
// C-CMP-02 (spec/v1/classes/C-CMP-02.yaml) tells FTZ from DAZ by the side a
// probe acts on; the model classifies elements and names the signature.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kcs/reference/formats.hpp"

namespace kcs::suites {

// Which side of the operator a probe's subnormals are on.
enum class SubnormalSide {
    input,   // some input subnormal, the result normal: only DAZ changes it
    output,  // normal inputs, a subnormal result: only FTZ changes it
    both,    // subnormal inputs and a subnormal result
};
inline constexpr std::size_t kSubnormalSides = 3;
std::string_view to_string(SubnormalSide side);

enum class SubnormalOutcome { pres, flush, neither };
inline constexpr std::size_t kSubnormalOutcomes = 3;
std::string_view to_string(SubnormalOutcome outcome);

// y_pres != y_flush as numbers (+0 == -0).
bool distinguishing(double y_pres, double y_flush);

// Exact probes: pres when y is y_pres bit for bit (a zero y_pres: either
// sign), flush when y is y_flush (a zero y_flush: either sign), else neither.
SubnormalOutcome classify_exact(ref::Format out, std::uint32_t got_bits, double y_pres, double y_flush);

// Function probes: pres when y has y_pres's kind (finite, nonzero, of its
// sign), flush when y is a zero (y_flush is zero on these probes), else neither.
SubnormalOutcome classify_kind(ref::Format out, std::uint32_t got_bits, double y_pres);
// The same with an exact y_flush that may be an infinity (rsqrt and log of
// a zero): flush when y is y_flush (a zero y_flush: either sign).
SubnormalOutcome classify_kind(ref::Format out, std::uint32_t got_bits, double y_pres, double y_flush);

// Counts of the distinguishing elements of one case, by side and outcome.
struct SubnormalCounts {
    std::array<std::array<std::size_t, kSubnormalOutcomes>, kSubnormalSides> n{};

    void add(SubnormalSide side, SubnormalOutcome outcome) {
        ++n[static_cast<std::size_t>(side)][static_cast<std::size_t>(outcome)];
    }
    std::size_t at(SubnormalSide side, SubnormalOutcome outcome) const {
        return n[static_cast<std::size_t>(side)][static_cast<std::size_t>(outcome)];
    }
    std::size_t probes(SubnormalSide side) const;  // distinguishing elements of that side
};

// What a case showed against the claim: PASS (empty signature) or the
// C-CMP-02 signature with the (side, outcome) cell that shows it.
struct SubnormalFinding {
    std::string signature;  // "" (pass), ftz, daz, mixed-flush, unmatched
    SubnormalSide side = SubnormalSide::output;
    SubnormalOutcome outcome = SubnormalOutcome::flush;
};

// Under preserve: ftz when an output-side element was flushed (results are
// flushed, with or without the inputs); daz when output-side elements were
// honoured and an input-side one flushed; a flushed element of a probe with
// both sides is ftz where the case has no output-side probe (the result
// was flushed; whether the inputs were too cannot be seen) and daz where it
// has output-side probes and they were honoured; unmatched when elements
// are neither value. Under flush: mixed-flush when any element kept
// y_pres; unmatched when elements are neither value.
SubnormalFinding judge_subnormal_policy(const SubnormalCounts& counts, std::string_view claim);

}  // namespace kcs::suites
