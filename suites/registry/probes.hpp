// The probes the suites provide, one per (contract class, operator) pair:
// the one place that maps an instance to the code that measures it.
#pragma once

#include <string_view>
#include <vector>

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

struct ProbeEntry {
    std::string_view class_id;  // "C-PRC-01"
    std::string_view op;        // "matmul"
    harness::Probe probe;  // its declare: the instance's form (declare_instance_form) when none
};

const std::vector<ProbeEntry>& probes();

// nullptr when no probe implements the pair yet. The probe's declaration is
// its own, or else the instance's form (support.hpp).
harness::Probe find_probe(std::string_view class_id, std::string_view op);

// Whether the instance's probe can cut its sweep into parts that fold
// (harness::Probe::splits: an exhaustive sweep): the predicate
// harness::assign_shards takes.
bool splits_sweep(const harness::Instance& instance);

}  // namespace kcs::suites
