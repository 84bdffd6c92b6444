// The probes of the precision family (C-PRC-01, C-PRC-02, C-PRC-03) and of
// C-ORD-01, for the operators whose scope they share: each implements its
// class's measurement protocol (spec/v1/classes/<id>.yaml) and is listed in
// suites/registry/probes.cpp.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-PRC-01 Accumulator preservation: matmul, reduce_sum, softmax, layernorm, rmsnorm.
harness::CaseResult accumulator_preservation(harness::ProbeContext& context);

// C-PRC-02 Cancellation and overflow safety: softmax.
harness::CaseResult cancellation_overflow_safety(harness::ProbeContext& context);

// C-PRC-03 Declared compute precision, no silent coercion: matmul.
harness::CaseResult declared_compute_precision(harness::ProbeContext& context);

// C-ORD-01 Reduction order, bounded path dependence: matmul, reduce_sum, softmax,
// layernorm, rmsnorm.
harness::CaseResult bounded_path_dependence(harness::ProbeContext& context);

}  // namespace kcs::suites
