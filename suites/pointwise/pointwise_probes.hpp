// The probes of the pointwise operators unary, elementwise and cast for
// C-EXC-01 NaN and Inf propagation, C-CMP-02 subnormal handling and
// C-CMP-03 contraction and reassociation (elementwise and unary; cast has no
// arithmetic to contract). Every instance is one function of its family:
// the probe reads it from the instance. registry/probes.cpp maps each
// (class, operator) to one.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-EXC-01 (pointwise_special.cpp): NaN, infinities and zeros as each operand.
harness::CaseResult special_values_unary(harness::ProbeContext& context);
harness::CaseResult special_values_elementwise(harness::ProbeContext& context);
harness::CaseResult special_values_cast(harness::ProbeContext& context);

// C-CMP-02 (pointwise_subnormals.cpp): input-side, output-side and two-sided subnormal probes.
harness::CaseResult subnormal_handling_unary(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_elementwise(harness::ProbeContext& context);
harness::CaseResult subnormal_handling_cast(harness::ProbeContext& context);

// C-CMP-03 (pointwise_contraction.cpp): mul_add contraction probes and IEEE probes.
harness::CaseResult contraction_elementwise(harness::ProbeContext& context);
harness::CaseResult contraction_unary(harness::ProbeContext& context);

}  // namespace kcs::suites
