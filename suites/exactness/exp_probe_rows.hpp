// The probe rows of C-CMP-01 (spec/v1/classes/C-CMP-01.yaml) for the
// exponential inside softmax and attention: rows of 64 logits whose entry 0
// is 0 (the row maximum) and whose other entries lie in [-104, ln(2^-30)],
// drawn as integers between the interval's end patterns (stream 2^16 + 2),
// so that every probability is the exponential of its logit; and their
// judging by the ulp_table model against cr = RN_out(exp(x)).
// softmax_exp_accuracy.cpp runs the rows through softmax,
// attention_exp_accuracy.cpp through attention's scores.
#pragma once

#include <cstdint>
#include <string>

#include "exactness_common.hpp"
#include "kcs/harness/probe.hpp"

namespace kcs::suites::exactness {

inline constexpr std::int64_t kExpProbeRowLength = 64;

// Rows enough for `samples` drawn logits, 63 per row.
std::int64_t exp_probe_rows(std::int64_t samples);

// The logits [rows, 64] in the input dtype of the configuration.
harness::HostTensor exp_probe_logits(const ConfigFormats& f, std::uint64_t seed, std::int64_t rows);

// Judges `probabilities` [rows, 64] (the output) against exp of `logits`
// element by element. `operand` is the input that carried the row to the
// operator (softmax's x, attention's Q), named `operand_name` in the evidence.
harness::CaseResult judge_exp_probabilities(harness::ProbeContext& context, const harness::HostTensor& logits,
                                            const harness::HostTensor& probabilities,
                                            const std::string& operand_name, const harness::HostTensor& operand);

}  // namespace kcs::suites::exactness
