// C-EXC-01 NaN and Inf propagation (spec/v1/classes/C-EXC-01.yaml) for
// layernorm and rmsnorm: "one special value poisons a row". Three kinds
// of call, each on rows of 17 entries, every other value from normal(0, 1):
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
#include <string>
#include <vector>

#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "norm_probes.hpp"
#include "reduction_problems.hpp"
#include "special_value_cases.hpp"
#include "special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace special_cases;
using harness::HostTensor;

constexpr std::int64_t kAffineRows = 4;  // rows under special gamma and beta: z_i of both signs

// One call: its operands, each [rows, 17] or [17], and a label per row.
struct NormCall {
    std::string kind;
    HostTensor x, gamma, beta;  // beta empty for rmsnorm
    std::vector<std::string> row_labels;
    std::vector<std::string> feature_labels;  // specials in gamma / beta per feature
};

bool layernorm(const harness::Instance& instance) {
    return precision::reducing_operator(instance) == precision::ReducingOperator::layernorm;
}

// gamma (input 1) and beta (input 2) from normal(0, 1), with specials placed.
HostTensor feature_vector(const harness::ProbeContext& context, std::uint32_t input,
                          const std::vector<Placement>& specials) {
    HostTensor t = generate(context.instance().config.inputs.at(input), {static_cast<std::int64_t>(kRowLength)},
                            ref::Normal{0, 1}, context.seed(), input);
    read_as_claimed(t, context.claims());
    for (const auto& p : specials) t.set_bits(p.position, p.bits);
    return t;
}

NormCall x_call(const harness::ProbeContext& context, const ConfigFormats& f) {
    const harness::Instance& instance = context.instance();
    const auto lines = singles_and_pairs(special_values_of(f.in));
    NormCall c{"special x", rows_with(f, context, lines), feature_vector(context, 1, {}), {}, {}, {}};
    if (layernorm(instance)) c.beta = feature_vector(context, 2, {});
    for (const auto& line : lines) c.row_labels.push_back("x row: " + line.label);
    c.feature_labels.assign(kRowLength, "");
    return c;
}

// Specials in gamma and beta at the first, middle and last features; `gamma`
// and `beta` give the value at each position (0: none).
NormCall affine_call(const harness::ProbeContext& context, const ConfigFormats& f, std::string kind,
                     const std::array<std::uint32_t, 3>& gamma, const std::array<std::uint32_t, 3>& beta) {
    const harness::Instance& instance = context.instance();
    const SpecialValues sg = special_values_of(float_format(instance.config.inputs.at(1)));
    std::vector<Placement> in_gamma, in_beta;
    std::vector<std::string> labels(kRowLength, "");
    for (std::size_t k = 0; k < kPositions.size(); ++k) {
        const std::size_t j = at(kPositions[k]);
        if (gamma[k]) {
            in_gamma.push_back({j, gamma[k]});
            labels[j] += "gamma " + name_of(sg, gamma[k]) + " at " + at_name(kPositions[k]);
        }
        if (beta[k]) {
            in_beta.push_back({j, beta[k]});
            const SpecialValues sb = special_values_of(float_format(instance.config.inputs.at(2)));
            labels[j] += std::string(labels[j].empty() ? "" : ", ") + "beta " + name_of(sb, beta[k]) + " at " +
                         at_name(kPositions[k]);
        }
    }
    const std::vector<SpecialLine> plain(static_cast<std::size_t>(kAffineRows), SpecialLine{"normal(0, 1) only", {}});
    NormCall c{std::move(kind), rows_with(f, context, plain), feature_vector(context, 1, in_gamma), {}, {}, labels};
    if (layernorm(instance)) c.beta = feature_vector(context, 2, in_beta);
    c.row_labels.assign(static_cast<std::size_t>(kAffineRows), "x row: normal(0, 1) only");
    return c;
}

std::vector<NormCall> calls(const harness::ProbeContext& context, const ConfigFormats& f) {
    const harness::Instance& instance = context.instance();
    std::vector<NormCall> out{x_call(context, f)};
    const SpecialValues g = special_values_of(float_format(instance.config.inputs.at(1)));
    out.push_back(affine_call(context, f, "special gamma", {g.plus_nan, g.plus_inf, g.minus_inf}, {0, 0, 0}));
    if (layernorm(instance)) {
        const SpecialValues b = special_values_of(float_format(instance.config.inputs.at(2)));
        out.push_back(affine_call(context, f, "special beta", {0, 0, 0}, {b.minus_nan, b.minus_inf, b.plus_inf}));
        out.push_back(affine_call(context, f, "special gamma and beta", {g.plus_inf, g.plus_nan, g.minus_inf},
                                  {b.minus_inf, b.plus_inf, b.plus_inf}));
    }
    return out;
}

std::vector<double> oracle(const harness::Instance& instance, const NormCall& c) {
    const ref::RowShape shape{c.row_labels.size(), kRowLength};
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
        for (std::size_t i = 0; i < y.size(); ++i) {
            const std::size_t j = i % kRowLength;
            std::string probe = c.kind + "; " + c.row_labels[i / kRowLength];
            if (!c.feature_labels[j].empty()) probe += "; " + c.feature_labels[j];
            batch.elements.push_back({i, expectation_of(y[i]), y[i], std::move(probe)});
        }
        batch.inputs_of = [&c, has_beta](std::size_t i) {
            const std::size_t row = i / kRowLength, j = i % kRowLength;
            auto inputs = depends_on_range("x", c.x, row * kRowLength, kRowLength);
            inputs.push_back("gamma[" + std::to_string(j) + "]=" + hex_bits(c.gamma, j));
            if (has_beta) inputs.push_back("beta[" + std::to_string(j) + "]=" + hex_bits(c.beta, j));
            return inputs;
        };
        batches.push_back(std::move(batch));
    }
    return judge_special_batches(context, batches);
}

}  // namespace kcs::suites
