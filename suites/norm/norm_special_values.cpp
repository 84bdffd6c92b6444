// C-EXC-01 NaN and Inf propagation (spec/v1/classes/C-EXC-01.yaml) for
// layernorm and rmsnorm: "one special value poisons a row". Three kinds
// of call at every shape [rows, L] of the `shapes` parameter, every other
// value from normal(0, 1):
//   x: each of +-NaN and +-inf at the first, middle and last positions of
//      a row, and the pairs +inf with -inf and NaN with inf (a row each);
//   gamma: +NaN, +inf and -inf at the first, middle and last features,
//      judged in every row (the sign of z_i decides inf or -inf);
//   beta (layernorm): -NaN, -inf and +inf there, and gamma and beta paired
//      at one feature (+inf with -inf, NaN with +inf, -inf with +inf).
// The oracles evaluate the definition under IEEE 754 (a non-finite x makes
// a layernorm row NaN throughout; in rmsnorm it makes rrms = 0, so the
// other outputs are zeros and its own NaN) and ieee_special judges every
// element by class.
#include <array>
#include <map>
#include <string>
#include <vector>

#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "norm_probes.hpp"
#include "../precision/reduction_problems.hpp"
#include "../exactness/special_value_cases.hpp"
#include "../exactness/special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace special_cases;
using harness::HostTensor;

// One call: its operands, x [rows, L] and gamma, beta [L], and a label per row.
struct NormCall {
    std::string kind;
    HostTensor x, gamma, beta;  // beta empty for rmsnorm
    std::vector<std::string> row_labels;
    std::vector<std::string> feature_labels;  // specials in gamma / beta per feature
    std::string shape;
};

bool layernorm(const harness::Instance& instance) {
    return precision::reducing_operator(instance) == precision::ReducingOperator::layernorm;
}

// gamma (input 1) and beta (input 2) of `length` from normal(0, 1), with specials placed.
HostTensor feature_vector(const harness::ProbeContext& context, std::uint32_t input, std::size_t length,
                          const std::map<std::size_t, std::uint32_t>& specials) {
    HostTensor t = generate(context.instance().config.inputs.at(input), {static_cast<std::int64_t>(length)},
                            ref::Normal{0, 1}, context.seed(), input);
    read_as_claimed(t, context.claims());
    for (const auto& [j, bits] : specials) t.set_bits(j, bits);
    return t;
}

// The x probes at every shape, gamma and beta without specials.
std::vector<NormCall> x_calls(const harness::ProbeContext& context, const ConfigFormats& f) {
    const harness::Instance& instance = context.instance();
    const SpecialValues s = special_values_of(f.in);
    std::vector<NormCall> out;
    for (RowCall& call : row_calls(f, context, [&s](std::size_t length) { return singles_and_pairs(s, length); })) {
        NormCall c{"special x", std::move(call.x), feature_vector(context, 1, call.length, {}), {}, {}, {}, call.shape};
        if (layernorm(instance)) c.beta = feature_vector(context, 2, call.length, {});
        for (const auto& line : call.lines) c.row_labels.push_back("x row: " + line.label);
        c.feature_labels.assign(call.length, "");
        out.push_back(std::move(c));
    }
    return out;
}

// Specials in gamma and beta at the first, middle and last features; `gamma`
// and `beta` give the value at each position (0: none; where positions
// coincide in a short row, the later one), under x rows of normal(0, 1).
NormCall affine_call(const harness::ProbeContext& context, const ConfigFormats& f, std::string kind,
                     const std::vector<std::int64_t>& shape, const std::array<std::uint32_t, 3>& gamma,
                     const std::array<std::uint32_t, 3>& beta) {
    const harness::Instance& instance = context.instance();
    const auto rows = static_cast<std::size_t>(shape[0]), length = static_cast<std::size_t>(shape[1]);
    std::map<std::size_t, std::uint32_t> in_gamma, in_beta;
    for (std::size_t k = 0; k < kPositions.size(); ++k) {
        const std::size_t j = at(kPositions[k], length);
        if (gamma[k]) in_gamma[j] = gamma[k];
        if (beta[k]) in_beta[j] = beta[k];
    }
    std::vector<std::string> labels(length, "");
    const SpecialValues sg = special_values_of(float_format(instance.config.inputs.at(1)));
    for (const auto& [j, bits] : in_gamma) labels[j] = "gamma " + name_of(sg, bits) + " at feature " + std::to_string(j);
    if (layernorm(instance)) {
        const SpecialValues sb = special_values_of(float_format(instance.config.inputs.at(2)));
        for (const auto& [j, bits] : in_beta)
            labels[j] += std::string(labels[j].empty() ? "" : ", ") + "beta " + name_of(sb, bits) + " at feature " +
                         std::to_string(j);
    }
    const std::vector<SpecialLine> plain(rows, SpecialLine{"normal(0, 1) only", {}});
    NormCall c{std::move(kind), rows_with(f, context, plain, length), feature_vector(context, 1, length, in_gamma),
               {}, {}, labels, shape_text(shape)};
    if (layernorm(instance)) c.beta = feature_vector(context, 2, length, in_beta);
    c.row_labels.assign(rows, "x row: normal(0, 1) only");
    return c;
}

std::vector<NormCall> calls(const harness::ProbeContext& context, const ConfigFormats& f) {
    const harness::Instance& instance = context.instance();
    std::vector<NormCall> out = x_calls(context, f);
    const SpecialValues g = special_values_of(float_format(instance.config.inputs.at(1)));
    for (const auto& shape : probe_shapes(instance, 2, "[rows, L]")) {
        out.push_back(affine_call(context, f, "special gamma", shape, {g.plus_nan, g.plus_inf, g.minus_inf}, {0, 0, 0}));
        if (!layernorm(instance)) continue;
        const SpecialValues b = special_values_of(float_format(instance.config.inputs.at(2)));
        out.push_back(
            affine_call(context, f, "special beta", shape, {0, 0, 0}, {b.minus_nan, b.minus_inf, b.plus_inf}));
        out.push_back(affine_call(context, f, "special gamma and beta", shape, {g.plus_inf, g.plus_nan, g.minus_inf},
                                  {b.minus_inf, b.plus_inf, b.plus_inf}));
    }
    return out;
}

std::vector<double> oracle(const harness::Instance& instance, const NormCall& c) {
    const ref::RowShape shape{c.row_labels.size(), c.feature_labels.size()};
    const double eps = precision::default_eps(instance);
    if (layernorm(instance)) return ref::layernorm_oracle(values(c.x), values(c.gamma), values(c.beta), shape, eps).value;
    return ref::rmsnorm_oracle(values(c.x), values(c.gamma), shape, eps).value;
}

}  // namespace

harness::CaseResult norm_special_values(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    if (!precision::is_norm(precision::reducing_operator(instance)))
        throw std::invalid_argument(instance.id + ": this C-EXC-01 probe measures layernorm and rmsnorm only");
    const ConfigFormats f = formats_of(instance);
    const std::vector<NormCall> all = calls(context, f);

    const bool has_beta = layernorm(instance);
    std::vector<SpecialBatch> batches;
    for (const NormCall& c : all) {
        std::vector<HostTensor> inputs{c.x, c.gamma};
        if (has_beta) inputs.push_back(c.beta);
        SpecialBatch batch{context.run(invocation(instance, std::move(inputs), c.x.shape)).at(0), {}, {}};
        const std::vector<double> y = oracle(instance, c);
        const std::size_t length = c.feature_labels.size();
        for (std::size_t i = 0; i < y.size(); ++i) {
            const std::size_t j = i % length;
            std::string probe = c.kind + "; " + c.row_labels[i / length];
            if (!c.feature_labels[j].empty()) probe += "; " + c.feature_labels[j];
            batch.elements.push_back({i, expectation_of(y[i]), y[i], probe.append(" ").append(c.shape)});
        }
        batch.inputs_of = [&c, has_beta, length](std::size_t i) {
            const std::size_t row = i / length, j = i % length;
            auto inputs = depends_on_range("x", c.x, row * length, length);
            inputs.push_back("gamma[" + std::to_string(j) + "]=" + hex_bits(c.gamma, j));
            if (has_beta) inputs.push_back("beta[" + std::to_string(j) + "]=" + hex_bits(c.beta, j));
            return inputs;
        };
        batches.push_back(std::move(batch));
    }
    return judge_special_batches(context, batches);
}

}  // namespace kcs::suites
