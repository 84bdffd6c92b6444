// Attention problems for the probes of suites/attention/attention_*.cpp:
// Q [S, D], K and V [T, D] as exact values of the configuration's input
// dtypes, the causal and scale attributes, the invocation, the oracle
// (reference/oracles attention_oracle.hpp) and the evidence about the inputs
// an output element depends on. The magnitude term of C-PRC-02 for attention
// lives here too: C-PRC-02 judges by it and C-PRC-04 check (b) derives its
// accumulator-side bound from it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/probe.hpp"
#include "kcs/reference/attention_oracle.hpp"
#include "kcs/reference/distributions.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::suites::attention {

struct AttentionProblem {
    std::int64_t queries = 0;   // S
    std::int64_t keys = 0;      // T
    std::int64_t head_dim = 0;  // D
    bool causal = false;
    std::optional<double> scale;  // the scale attribute; none: the default 1/sqrt(D)
    std::vector<double> q;        // [S, D]
    std::vector<double> k;        // [T, D]
    std::vector<double> v;        // [T, D]
    std::string data_set;         // how the operands were made, for evidence
};

// A problem whose Q, K and V (input tensors 0, 1, 2) are drawn from the
// given distributions with the case seed (SPEC section 4), read as the
// claims say (operator_io.hpp, read_as_claimed).
AttentionProblem drawn_problem(const harness::Instance& instance, const harness::Claims& claims, std::int64_t queries,
                               std::int64_t keys, std::int64_t head_dim, const ref::Distribution& q,
                               const ref::Distribution& k, const ref::Distribution& v, std::uint64_t seed,
                               std::string data_set);

// Rounds Q, K and V to their input dtypes (nearest even), so that the oracle
// sees what the adapter receives. Constructions call it once they are built.
void fit_to_inputs(const harness::Instance& instance, AttentionProblem& problem);

// The invocation: Q, K, V as tensors of the input dtypes, the attributes,
// and one output O [S, D] of the output dtype.
harness::Invocation attention_invocation(const harness::Instance& instance, const AttentionProblem& problem);

// The same call's form with no data, for the support phase: Q [2, 4], K and
// V [3, 4], and the attributes a problem with this mask and scale passes.
harness::Invocation declared_attention(const harness::Instance& instance, bool causal,
                                       std::optional<double> scale = std::nullopt);

// Runs the problem on the adapter (under the integrity protocol): O.
harness::HostTensor run_attention(harness::ProbeContext& context, const AttentionProblem& problem);

// The oracle on the problem, with the configuration's accumulator for the scale.
ref::AttentionResult attention_reference(const harness::Instance& instance, const AttentionProblem& problem,
                                         ref::MaskedRow masked_row = ref::MaskedRow::nan);

// The inputs O[s, d] (element `index`) depends on: Q[s, :], K[:, :] and
// V[:, d], listed with their bits when there are at most 64 of them,
// otherwise as index ranges, which the generator regenerates (SPEC section 9).
std::vector<std::string> attention_inputs(const harness::Instance& instance, const AttentionProblem& problem,
                                          std::size_t index);

// C-PRC-02's magnitude term of O[s, d] (element `index`), with L = T:
//   M = (W (L32 + 2 (D + 1) A) + G + 2^-126 sum_t |V[t, d]| / u(acc)) / L + T_out,
// W = sum_t p_t* |V[t, d]|, G = sum_t p_t* g_t |V[t, d]| (g the score gaps),
// A the row's largest scale * sum_d |q_d k_td|, L32 = max(L, 32),
// T_out = tiny(out) / (L u(acc)) where |y*| < 2 tiny(out), else 0.
double stability_magnitude(const ref::AttentionResult& oracle, const AttentionProblem& problem, std::size_t index,
                           double u_acc, ref::Format out);

// The oracle's own error bound at element `index` (attention_oracle.hpp):
// (2 delta + 10u) W + 2^-1072 sum_t |V[t, d]|, delta = (gamma(D, u)^2 + 3u^2) A, u = 2^-53.
double oracle_error(const ref::AttentionResult& oracle, const AttentionProblem& problem, std::size_t index);

}  // namespace kcs::suites::attention
