// The probes of layernorm and rmsnorm for the classes whose protocols
// are the norms' own (C-PRC-01 and C-ORD-01 share the reducing operators'
// probes, precision_probes.hpp; C-PRC-04 is conversion_rounding.cpp's,
// exactness_probes.hpp; C-ORD-02, C-ORD-03 and C-EXC-02 the row
// operators', ordering_probes.hpp). Each implements its class's measurement protocol
// (spec/v1/classes/<id>.yaml) and is listed in suites/registry/probes.cpp.
#pragma once

#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// C-PRC-02 Cancellation and overflow safety (norm_cancellation.cpp): the
// variance of layernorm and the mean square of rmsnorm on rows with a large
// mean, constant rows and rows near the accumulator's range.
harness::CaseResult norm_cancellation_safety(harness::ProbeContext& context);

// C-CMP-02 Subnormal handling (norm_subnormals.cpp): rows of subnormals
// (input side) and outputs scaled into the subnormal range (output side).
harness::CaseResult norm_subnormal_handling(harness::ProbeContext& context);

// C-CMP-03 Contraction (norm_contraction.cpp): the affine step read against
// the adapter's own normalised row, and the signed-zero IEEE probes.
harness::CaseResult norm_contraction(harness::ProbeContext& context);

// C-EXC-01 NaN and Inf propagation (norm_special_values.cpp): one special
// value in x, gamma or beta poisons what the definition says it poisons.
harness::CaseResult norm_special_values(harness::ProbeContext& context);

}  // namespace kcs::suites
