#include "attention_problems.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "kcs/reference/bounds.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites::attention {

namespace {

constexpr std::size_t kMostInputsListed = 64;  // SPEC section 9: beyond this, index ranges
constexpr double kF64UnitRoundoff = 0x1p-53;

std::size_t size(std::int64_t extent) { return static_cast<std::size_t>(extent); }

const std::string& input_dtype(const harness::Instance& instance, std::size_t operand) {
    return instance.config.inputs.at(operand);
}

void round_all(std::vector<double>& values, ref::Format format) {
    for (double& x : values) x = ref::round_to(format, x);
}

std::string range_text(const std::string& name, std::int64_t first_row, std::int64_t rows, std::int64_t first_col,
                       std::int64_t cols) {
    const auto span = [](std::int64_t first, std::int64_t count) {
        return count == 1 ? std::to_string(first) : std::to_string(first) + ":" + std::to_string(first + count);
    };
    return name + "[" + span(first_row, rows) + "," + span(first_col, cols) + "]";
}

}  // namespace

AttentionProblem drawn_problem(const harness::Instance& instance, const harness::Claims& claims, std::int64_t queries,
                               std::int64_t keys, std::int64_t head_dim, const ref::Distribution& q,
                               const ref::Distribution& k, const ref::Distribution& v, std::uint64_t seed,
                               std::string data_set) {
    AttentionProblem p;
    p.queries = queries;
    p.keys = keys;
    p.head_dim = head_dim;
    p.data_set = std::move(data_set);
    p.q = draw_as_claimed(input_dtype(instance, 0), {queries, head_dim}, q, seed, 0, claims);
    p.k = draw_as_claimed(input_dtype(instance, 1), {keys, head_dim}, k, seed, 1, claims);
    p.v = draw_as_claimed(input_dtype(instance, 2), {keys, head_dim}, v, seed, 2, claims);
    return p;
}

void fit_to_inputs(const harness::Instance& instance, AttentionProblem& p) {
    if (p.q.size() != size(p.queries * p.head_dim) || p.k.size() != size(p.keys * p.head_dim) ||
        p.v.size() != size(p.keys * p.head_dim))
        throw std::logic_error("attention problem '" + p.data_set + "': operand sizes do not match [S, T, D]");
    round_all(p.q, float_format(input_dtype(instance, 0)));
    round_all(p.k, float_format(input_dtype(instance, 1)));
    round_all(p.v, float_format(input_dtype(instance, 2)));
}

namespace {

harness::Invocation with_attributes(harness::Invocation inv, bool causal, std::optional<double> scale) {
    if (causal) inv.attributes.push_back({"causal", true});
    if (scale) inv.attributes.push_back({"scale", *scale});
    return inv;
}

}  // namespace

harness::Invocation attention_invocation(const harness::Instance& instance, const AttentionProblem& p) {
    std::vector<harness::HostTensor> inputs;
    inputs.push_back(from_values(input_dtype(instance, 0), {p.queries, p.head_dim}, p.q));
    inputs.push_back(from_values(input_dtype(instance, 1), {p.keys, p.head_dim}, p.k));
    inputs.push_back(from_values(input_dtype(instance, 2), {p.keys, p.head_dim}, p.v));
    return with_attributes(invocation(instance, std::move(inputs), {p.queries, p.head_dim}), p.causal, p.scale);
}

harness::Invocation declared_attention(const harness::Instance& instance, bool causal, std::optional<double> scale) {
    const auto no_bytes = [&](std::size_t t, std::vector<std::int64_t> dims) {
        return harness::HostTensor{abi_dtype(input_dtype(instance, t)), std::move(dims), {}};
    };
    return with_attributes(invocation(instance, {no_bytes(0, {2, 4}), no_bytes(1, {3, 4}), no_bytes(2, {3, 4})}, {2, 4}),
                           causal, scale);
}

harness::HostTensor run_attention(harness::ProbeContext& context, const AttentionProblem& p) {
    auto outputs = context.run(attention_invocation(context.instance(), p));
    return std::move(outputs.at(0));
}

ref::AttentionResult attention_reference(const harness::Instance& instance, const AttentionProblem& p,
                                         ref::MaskedRow masked_row) {
    ref::AttentionOptions options;
    options.causal = p.causal;
    options.scale = p.scale;
    options.accumulate = float_format(accumulate_dtype(instance));
    options.masked_row = masked_row;
    return ref::attention_oracle(p.q, p.k, p.v, {size(p.queries), size(p.keys), size(p.head_dim)}, options);
}

std::vector<std::string> attention_inputs(const harness::Instance& instance, const AttentionProblem& p,
                                          std::size_t index) {
    const auto s = static_cast<std::int64_t>(index / size(p.head_dim));
    const auto d = static_cast<std::int64_t>(index % size(p.head_dim));
    const std::int64_t count = p.head_dim + p.keys * p.head_dim + p.keys;
    if (size(count) > kMostInputsListed)
        return {range_text("Q", s, 1, 0, p.head_dim), range_text("K", 0, p.keys, 0, p.head_dim),
                range_text("V", 0, p.keys, d, 1)};
    std::vector<std::string> listed;
    const auto entry = [&](const std::string& name, std::size_t operand, const std::vector<double>& x,
                           std::int64_t row, std::int64_t col) {
        listed.push_back(name + "[" + std::to_string(row) + "," + std::to_string(col) +
                         "]=" + precision::value_bits(input_dtype(instance, operand), x[size(row * p.head_dim + col)]));
    };
    for (std::int64_t j = 0; j < p.head_dim; ++j) entry("Q", 0, p.q, s, j);
    for (std::int64_t t = 0; t < p.keys; ++t)
        for (std::int64_t j = 0; j < p.head_dim; ++j) entry("K", 1, p.k, t, j);
    for (std::int64_t t = 0; t < p.keys; ++t) entry("V", 2, p.v, t, d);
    return listed;
}

double stability_magnitude(const ref::AttentionResult& oracle, const AttentionProblem& p, std::size_t index,
                           double u_acc, ref::Format out) {
    // C-PRC-02's postcondition defines L32 = max(L, 32).
    constexpr std::int64_t kShortRowFloor = 32;
    const double length = static_cast<double>(p.keys);
    const double l32 = static_cast<double>(std::max(p.keys, kShortRowFloor));
    const double d = static_cast<double>(p.head_dim);
    const double a = oracle.score_magnitude[index / size(p.head_dim)];
    const double tiny = ref::info(out).min_normal;
    const double t = std::fabs(oracle.value[index]) < 2 * tiny ? tiny / (length * u_acc) : 0.0;
    const double w = oracle.weighted_abs_value[index];
    return (w * (l32 + 2 * (d + 1) * a) + oracle.gap_weighted_abs_value[index] +
            0x1p-126 * oracle.abs_value_sum[index] / u_acc) /
               length +
           t;
}

double oracle_error(const ref::AttentionResult& oracle, const AttentionProblem& p, std::size_t index) {
    const double u = kF64UnitRoundoff;
    const double g = ref::gamma(p.head_dim, u);
    const double delta = (g * g + 3 * u * u) * oracle.score_magnitude[index / size(p.head_dim)];
    return (2 * delta + 10 * u) * oracle.weighted_abs_value[index] + 0x1p-1072 * oracle.abs_value_sum[index];
}

}  // namespace kcs::suites::attention
