// C-PRC-02 Cancellation and overflow safety (spec/v1/classes/C-PRC-02.yaml)
// for attention. The protocol's attention data: Q and K scaled so that the
// scores cover the ranges of softmax's data sets (1) normal(0,1),
// (2) uniform(-110,110), past f32 exp's overflow threshold 88.72, and (3) for
// f16 and bf16 inputs uniform(-1000,1000); V from normal(0,1).
//
// The scores are made to be the data set's logits: with D = 16 the default
// scale is 1/4 (exact), Q[s, 0] = 4 and K[t, 0] = x_t, the logit, so each
// score is x_t plus (1/4) sum over d > 0 of Q[s, d] K[t, d] with those
// entries from normal(0,1), a noise of standard deviation about 1 that keeps
// every query's row different. Every element is judged by stability_bound's
// (a) finiteness and (b) element bound with attention's magnitude term
// (attention_problems.hpp); (c), the row sum, concerns softmax rows only.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../tolerance/element_judgement.hpp"
#include "../tolerance/model_citation.hpp"
#include "../tolerance/stability_bound.hpp"
#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace attention;

constexpr const char* kNonfiniteWhereFinite = "nonfinite-where-finite";

constexpr std::int64_t kHeadDim = 16;  // default scale 1/4, exact in every accumulator
constexpr double kLogitWeight = 4;     // Q[s, 0]: 1 / the default scale

struct ScoreSet {
    std::string name;
    precision::StabilityRole role;  // provoking: (2) and (3), whose largest score passes exp's overflow threshold
    ref::Distribution logits;
};

std::vector<ScoreSet> score_sets(const harness::Instance& instance) {
    std::vector<ScoreSet> sets{{"(1) scores from normal(0,1)", precision::StabilityRole::baseline, ref::Normal{0.0, 1.0}},
                               {"(2) scores from uniform(-110,110)", precision::StabilityRole::provoking, ref::Uniform{-110.0, 110.0}}};
    const std::string& input = instance.config.inputs.at(1);
    if (input == "f16" || input == "bf16")
        sets.push_back({"(3) scores from uniform(-1000,1000)", precision::StabilityRole::provoking, ref::Uniform{-1000.0, 1000.0}});
    return sets;
}

AttentionProblem problem_for(const harness::Instance& instance, const harness::Claims& claims, const ScoreSet& set,
                             std::int64_t queries, std::int64_t L, std::uint64_t seed) {
    const ref::Normal normal{0.0, 1.0};
    AttentionProblem p = drawn_problem(instance, claims, queries, L, kHeadDim, normal, normal, normal, seed, set.name);
    const auto logits = draw_as_claimed(instance.config.inputs.at(1), {L, kHeadDim}, set.logits, seed, 1, claims);
    for (std::int64_t s = 0; s < queries; ++s) p.q[static_cast<std::size_t>(s * kHeadDim)] = kLogitWeight;
    for (std::int64_t t = 0; t < L; ++t) {
        const auto i = static_cast<std::size_t>(t * kHeadDim);
        p.k[i] = logits[i];
    }
    fit_to_inputs(instance, p);
    return p;
}

struct SetFigures {
    std::string name;
    precision::StabilityRole role = precision::StabilityRole::baseline;
    std::int64_t L = 0;
    std::size_t elements = 0;
    std::size_t nonfinite = 0;
    std::size_t nan = 0;
    std::size_t over_bound = 0;
    double worst_ratio = 0;
    double largest_score = 0;
    harness::WorstElement worst;
    harness::WorstElement first_nonfinite;
};

SetFigures measure(harness::ProbeContext& context, const tolerance::StabilityBound& model, const ScoreSet& set,
                   std::int64_t queries, std::int64_t L) {
    const harness::Instance& instance = context.instance();
    const double u_acc = precision::unit_roundoff(accumulate_dtype(instance));
    const double u_out = precision::unit_roundoff(instance.config.output);
    const ref::Format out = float_format(instance.config.output);
    const AttentionProblem p = problem_for(instance, context.claims(), set, queries, L, context.seed());
    const harness::HostTensor output = run_attention(context, p);
    const std::vector<double> y = values(output);
    const ref::AttentionResult oracle = attention_reference(instance, p);

    SetFigures f;
    f.name = set.name + ", " + std::to_string(queries) + " queries";
    f.role = set.role;
    f.L = L;
    f.elements = y.size();
    f.largest_score = *std::max_element(oracle.score_max.begin(), oracle.score_max.end());
    if (!std::all_of(oracle.value.begin(), oracle.value.end(), [](double v) { return std::isfinite(v); }))
        throw std::logic_error("C-PRC-02 attention probe: y* is not finite");
    const auto bound_of = [&](std::size_t i) {
        return model.element_bound(L, u_acc, u_out, stability_magnitude(oracle, p, i, u_acc, out), oracle.value[i]);
    };
    const tolerance::ElementJudgement j = tolerance::judge_elements(y, oracle.value, bound_of);
    const auto element = [&](std::size_t i, double error, double bound) {
        return harness::WorstElement{static_cast<std::int64_t>(i), attention_inputs(instance, p, i), oracle.value[i],
                                     y[i], hex_bits(output, i), error, bound};
    };
    f.nonfinite = j.nonfinite;
    f.nan = j.nan;
    f.over_bound = j.over_bound;
    f.worst_ratio = j.worst_ratio;
    if (j.first_nonfinite)
        f.first_nonfinite = element(*j.first_nonfinite, tolerance::element_error(y[*j.first_nonfinite], oracle.value[*j.first_nonfinite]),
                                    bound_of(*j.first_nonfinite));
    if (j.worst) f.worst = element(*j.worst, j.worst_error, j.worst_bound);
    return f;
}

harness::CaseResult verdict_of(const harness::Instance& instance, const std::vector<SetFigures>& sets) {
    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.judged.unit = "elements";
    const SetFigures* nonfinite = nullptr;  // the first, in protocol order
    const SetFigures* worst = nullptr;
    std::vector<precision::StabilitySet> signature_sets;
    for (const auto& f : sets) {
        evidence.details["sets"].push_back({{"L", f.L},
                                            {"data_set", f.name},
                                            {"elements", f.elements},
                                            {"largest_score", f.largest_score},
                                            {"nonfinite_where_finite", f.nonfinite},
                                            {"elements_over_bound", f.over_bound},
                                            {"max_error_over_bound", f.worst_ratio}});
        evidence.judged.count += f.elements;
        signature_sets.push_back({f.role, f.nonfinite, f.nan, f.over_bound, 0});
        if (f.nonfinite > 0 && !nonfinite) nonfinite = &f;
        if (!worst || f.worst_ratio > worst->worst_ratio) worst = &f;
    }
    if (!worst) throw std::logic_error("C-PRC-02 attention probe: no data set was run");
    evidence.figure_name = harness::figures::stability_error.name;
    evidence.figure = worst->worst_ratio;
    evidence.bound = 1.0;
    evidence.worst = worst->worst;
    spec::Json figures;
    const std::string signature = precision::stability_signature(signature_sets, kNonfiniteWhereFinite, false, figures);
    if (!signature.empty()) evidence.details["signature_figures"] = figures;
    const auto where = [](const SetFigures& f) { return "T=" + std::to_string(f.L) + ", " + f.name + ": "; };
    if (nonfinite) {
        const SetFigures& f = *nonfinite;
        evidence.figure_name = harness::figures::nonfinite_outputs.name;
        evidence.figure = static_cast<double>(f.nonfinite);
        evidence.bound = 0;
        evidence.worst = f.first_nonfinite;
        return harness::case_verdict(instance, signature,
                            where(f) + std::to_string(f.nonfinite) + " outputs inf or NaN where y* is finite (first: " +
                                "element " + std::to_string(f.first_nonfinite.index) + ", got " +
                                f.first_nonfinite.got_bits + "; largest score " + ref::number_text(f.largest_score) + ")",
                            std::move(evidence));
    }
    if (worst->over_bound > 0)
        return harness::case_verdict(instance, signature,
                            where(*worst) + std::to_string(worst->over_bound) +
                                " finite outputs beyond stability_bound (worst |y - y*| = " +
                                ref::number_text(worst->worst.error) + " against " + ref::number_text(worst->worst.bound) +
                                ")",
                            std::move(evidence));
    return harness::case_verdict(instance, "",
                        "every output finite and within stability_bound; worst error/bound " +
                            ref::number_text(worst->worst_ratio),
                        std::move(evidence));
}

}  // namespace

harness::CaseResult attention_cancellation_overflow_safety(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const auto model = tolerance::StabilityBound::from_catalog(*instance.contract);
    std::vector<SetFigures> sets;
    for (const std::int64_t L : context.int_list("row_lengths"))
        for (const std::int64_t queries : context.int_list("rows"))
            for (const ScoreSet& set : score_sets(instance)) sets.push_back(measure(context, model, set, queries, L));
    return verdict_of(instance, sets);
}

}  // namespace kcs::suites
