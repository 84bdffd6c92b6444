// The probes of the exactness family, for matmul, reduce_sum, reduce_max and
// softmax: C-PRC-04 conversion rounding, C-CMP-01 approximation accuracy
// (softmax's exp), C-CMP-02 subnormal handling and C-EXC-01 NaN and Inf
// propagation. registry/probes.cpp maps each (class, operator) to one.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-PRC-04 (conversion_rounding.cpp): tie sums of kind (a) and the sampled check (b).
harness::CaseResult conversion_rounding_matmul(harness::ProbeContext& context);
harness::CaseResult conversion_rounding_reduce_sum(harness::ProbeContext& context);
harness::CaseResult conversion_rounding_softmax(harness::ProbeContext& context);
harness::CaseResult conversion_rounding_norm(harness::ProbeContext& context);  // layernorm, rmsnorm

// C-CMP-01 (softmax_exp_accuracy.cpp): rows whose probabilities are exp of the logits.
harness::CaseResult exp_accuracy_softmax(harness::ProbeContext& context);

// C-CMP-02 (subnormal_handling.cpp): input-side, output-side and two-sided subnormal probes.
harness::CaseResult subnormal_handling_matmul(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_reduce_sum(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_reduce_max(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_softmax(harness::ProbeContext& context);

// C-EXC-01 (special_values.cpp): NaN, infinities and masks at chosen positions.
harness::CaseResult special_values_matmul(harness::ProbeContext& context);
harness::CaseResult special_values_reduce_sum(harness::ProbeContext& context);
harness::CaseResult special_values_reduce_max(harness::ProbeContext& context);
harness::CaseResult special_values_softmax(harness::ProbeContext& context);

// gather, a copy (gather_copy.cpp): special values and subnormals in the
// table must come out bit for bit.
harness::CaseResult special_values_gather(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_gather(harness::ProbeContext& context);

}  // namespace kcs::suites
