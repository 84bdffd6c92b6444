// The probes of attention (spec/v1/operators/attention.yaml) for the classes
// whose protocol gives attention its own data: each implements its class's
// measurement protocol (spec/v1/classes/<id>.yaml) and is listed in
// suites/registry/probes.cpp. C-ORD-02, C-ORD-03 and C-EXC-02 reach attention
// through the row problems (row_problems.hpp) instead.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-PRC-01 (attention_accumulator.cpp): the softmax denominator and P.V sums over the key sweep.
harness::CaseResult attention_accumulator_preservation(harness::ProbeContext& context);

// C-PRC-02 (attention_stability.cpp): scores past exp's overflow threshold.
harness::CaseResult attention_cancellation_overflow_safety(harness::ProbeContext& context);

// C-PRC-03 (attention_compute_precision.cpp): one dominant key per query, V probed for precision and range.
harness::CaseResult attention_declared_compute_precision(harness::ProbeContext& context);
// Its one form: the scale attribute 1.
std::vector<harness::Invocation> attention_compute_precision_forms(const harness::Instance& instance);

// C-PRC-04 (attention_conversion_rounding.cpp): check (b) on sampled outputs.
harness::CaseResult attention_conversion_rounding(harness::ProbeContext& context);

// C-CMP-01 (attention_exp_accuracy.cpp): probabilities that are exp of the scores.
harness::CaseResult attention_exp_accuracy(harness::ProbeContext& context);

// C-CMP-02 (attention_subnormals.cpp): equal scores and subnormal values.
harness::CaseResult attention_subnormal_handling(harness::ProbeContext& context);

// C-EXC-01 (attention_special_values.cpp): NaN and inf in Q, K and V, masked rows, causal masks.
harness::CaseResult attention_special_values(harness::ProbeContext& context);
// Its two forms: unmasked, and under the causal mask (run only where offered).
std::vector<harness::Invocation> attention_special_value_forms(const harness::Instance& instance);

// C-ORD-01 (attention_path_dependence.cpp): keys and values permuted together.
harness::CaseResult attention_bounded_path_dependence(harness::ProbeContext& context);

}  // namespace kcs::suites
