// Primary cause (spec/SPEC.md section 5, "Primary cause"): one mechanism in
// a kernel can fail several classes on one operator configuration. A FAIL
// whose failing comparisons took another class's postcondition as given
// (CaseResult::assumes), while that class FAILs on the same operator and
// configuration, or on the configuration that computes the same values at
// full width, is a consequence of that FAIL, not an independent violation.
// Certify, merge, the renderers and kcs verify all take the rule from here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/runner.hpp"

namespace kcs::harness {

struct Consequence {
    std::string cause;   // the instance id whose FAIL explains this one
    std::string reason;  // one line: which assumption that FAIL shows false
};

// One slot per plan instance: the consequence for a FAIL explained by
// another FAIL, none for every other instance (a primary FAIL included).
// `results` has one slot per plan instance (empty: no verdict yet).
std::vector<std::optional<Consequence>> primary_causes(const std::vector<Instance>& plan,
                                                       const std::vector<std::optional<InstanceResult>>& results);

}  // namespace kcs::harness
