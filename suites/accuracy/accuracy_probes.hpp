// The accuracy and rounding probes of the pointwise operators: C-CMP-01
// approximation accuracy for unary, C-PRC-04 conversion rounding for cast,
// unary and elementwise. Each sweeps its inputs in chunks
// (exhaustive_sweep.hpp): every finite pattern of f16 and bf16 at every
// depth, and of f32 at depth full. registry/probes.cpp lists them.
#pragma once

#include <cstdint>
#include <span>

#include "kcs/harness/probe.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::suites {

// C-CMP-01 (unary_accuracy.cpp): err against cr = RN_out(f(x)) per function
// and configuration, per sub-domain and core binade.
harness::CaseResult unary_accuracy(harness::ProbeContext& context);
// Whether its sweep covers every finite pattern (f16 and bf16 at every
// depth, f32 at full): the same whatever the seed, so it may be cut in parts.
bool unary_sweep_is_exhaustive(const harness::Instance& instance);

// For tests: the saved record (AccuracyTally) of judging f32 results `got`
// against cr of `function` at inputs x, in the sweep's blocks, with or
// without the shortcut for common blocks; the two must be equal.
spec::Json unary_accuracy_record(ref::UnaryFunction function, double bound, std::span<const std::uint32_t> x,
                                 std::span<const std::uint32_t> got, bool shortcut);

// C-PRC-04 (cast_rounding.cpp): every stored value RN_out of its input,
// narrowing (curated, sampled, all 2^32 at full) and widening (all 2^16).
harness::CaseResult cast_rounding(harness::ProbeContext& context);
// Whether its sweep covers every input pattern (widening casts at every
// depth, narrowing ones at full): the same whatever the seed, so it may be cut in parts.
bool cast_sweep_is_exhaustive(const harness::Instance& instance);

// C-PRC-04 (pointwise_rounding.cpp): unary's f16 and bf16 stores (check (b)
// on N(0,1) arguments) and elementwise's (tie sums of kind (a) through add
// and mul_add, check (b) on N(0,1) operands).
harness::CaseResult unary_rounding(harness::ProbeContext& context);
harness::CaseResult elementwise_rounding(harness::ProbeContext& context);

}  // namespace kcs::suites
