// Runs contract instances: each case (one seed) through its probe, on one
// isolated adapter, under the integrity protocol.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "kcs/harness/probe.hpp"
#include "kcs/host/isolated_adapter.hpp"

namespace kcs::harness {

struct CaseRecord {
    std::uint64_t seed = 0;
    CaseResult result;
    std::chrono::nanoseconds wall{0};
    std::chrono::nanoseconds adapter_time{0};  // the part of wall spent inside adapter calls
};

struct InstanceResult {
    const Instance* instance = nullptr;
    Verdict verdict = Verdict::error;
    std::vector<CaseRecord> cases;  // empty for NOT_APPLICABLE
};

// Runs one case: `probe` (the instance's, from the suites' registry) with
// inputs from `seed`. NOT_APPLICABLE for an instance the plan excluded;
// ERROR when probe is null (no probe implements the instance yet).
CaseResult run_case(const Instance& instance, Probe probe, const spec::Catalog& catalog, const Claims& claims,
                    host::IsolatedAdapter& adapter, std::uint64_t seed);

// Runs the depth's seeds, base_seed + j (SPEC section 4, "Seeds"), in the
// same buffers, and combines them: the instance's verdict is the worst case's.
InstanceResult run_instance(const Instance& instance, Probe probe, const spec::Catalog& catalog,
                            const Claims& claims, host::IsolatedAdapter& adapter, std::uint64_t base_seed, int seeds);

}  // namespace kcs::harness
