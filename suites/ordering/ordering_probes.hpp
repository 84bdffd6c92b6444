// The ordering family's probes, and C-EXC-02's memory domain: one probe per
// class, shared by matmul, reduce_sum, reduce_max and softmax (the
// protocol is the same; row_problems.hpp knows each operator's data), and
// gather's own.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-ORD-02 Run-to-run determinism (distinct_outputs).
harness::CaseResult determinism_probe(harness::ProbeContext& context);

// C-ORD-03 Batch invariance (bitwise_equal).
harness::CaseResult batch_invariance_probe(harness::ProbeContext& context);

// C-EXC-02 Out-of-bounds policy and memory domain, its memory part
// (memory_domain): tail shapes under the integrity protocol, and the stale test.
harness::CaseResult memory_domain_probe(harness::ProbeContext& context);

// C-EXC-02 for gather: the memory domain, the stale test, and every
// out-of-range index of the protocol against the claimed oob_policy.
harness::CaseResult gather_policy_probe(harness::ProbeContext& context);

// C-ORD-02 Run-to-run determinism for gather (gather_determinism.cpp):
// its own problems (gather_problems.hpp), judged by distinct_outputs.
harness::CaseResult gather_determinism_probe(harness::ProbeContext& context);

}  // namespace kcs::suites
