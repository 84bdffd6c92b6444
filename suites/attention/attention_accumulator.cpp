// C-PRC-01 Accumulator preservation (spec/v1/classes/C-PRC-01.yaml) for
// attention: the reductions over the keys, the softmax denominator and the
// P.V sum, for each key length T of the K sweep at each head dimension D of
// `head_dims` (attention kernels are chosen by head dimension).
//
// Data sets as the protocol gives them, for Q, K and V alike: (a) normal(0,1)
// with cancellation, (b) uniform(0,1) without, (c) all ones, whose scores
// are all equal, so that P = 1/T and O = 1 exactly. S is what the statistics
// need: the fewest queries whose S D outputs per data set, three data sets,
// reach min_outputs (21 at D = 16).
//
// The magnitude term of the reduction under test (C-PRC-01's oracle note):
// M = 2 W, W = sum_t p_t* |V[t, d]|, since the denominator and the P.V sum
// each contribute gamma(T, u) W (C-ORD-01's derivation for attention). The
// statistics of dot_bound do not apply: the output is a composite, not the
// reduction itself (as for softmax). A sum of ones cannot show a stall here:
// a stalled denominator and a stalled P.V sum stall alike, and O = 1 still.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../tolerance/dot_bound.hpp"
#include "../tolerance/element_judgement.hpp"
#include "../tolerance/model_citation.hpp"
#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/bounds.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace attention;

constexpr double kReductions = 2;  // the denominator and the P.V sum

struct DataSet {
    std::string name;
    ref::Distribution distribution;
};

std::vector<DataSet> data_sets() {
    return {{"normal(0,1)", ref::Normal{0.0, 1.0}}, {"uniform(0,1)", ref::Uniform{0.0, 1.0}}, {"ones", ref::kOnes}};
}

struct KFigures {
    std::int64_t T = 0;
    std::size_t outputs = 0;
    std::size_t elements_failed = 0;
    double worst_ratio = 0;
    double max_abs_e = 0;  // largest |y - y*| / (gamma(T, u(acc)) M)
    std::string worst_set;
    harness::WorstElement worst;
};

// Every head dimension at key length T, pooled: the elements of all count at T.
KFigures measure_t(harness::ProbeContext& context, const tolerance::DotBound& model, std::int64_t T,
                   const std::vector<std::int64_t>& head_dims) {
    const harness::Instance& instance = context.instance();
    const double u_acc = precision::unit_roundoff(accumulate_dtype(instance));
    const double u_out = precision::unit_roundoff(instance.config.output);
    const auto underflow = tolerance::OutputUnderflow::of(float_format(instance.config.output), context.claims());
    const double g = ref::gamma(T, u_acc);
    KFigures f;
    f.T = T;
    bool first = true;
    const auto sets = static_cast<std::int64_t>(data_sets().size());
    const std::int64_t per_set = (static_cast<std::int64_t>(model.params.min_outputs) + sets - 1) / sets;
    for (const std::int64_t D : head_dims) {
        const std::int64_t S = (per_set + D - 1) / D;  // queries: S D outputs per data set
        for (const DataSet& set : data_sets()) {
            const auto& d = set.distribution;
            const AttentionProblem p = drawn_problem(instance, context.claims(), S, T, D, d, d, d, context.seed(), set.name);
            const harness::HostTensor output = run_attention(context, p);
            const std::vector<double> y = values(output);
            const ref::AttentionResult oracle = attention_reference(instance, p);
            const auto magnitude = [&](std::size_t i) { return kReductions * oracle.weighted_abs_value[i]; };
            const tolerance::ElementJudgement j = tolerance::judge_elements(y, oracle.value, [&](std::size_t i) {
                return model.bound_with_underflow(T, u_acc, u_out, underflow, magnitude(i), oracle.value[i]);
            });
            f.elements_failed += j.over_bound;
            if (j.worst && (first || j.worst_ratio > f.worst_ratio)) {
                first = false;
                const std::size_t i = *j.worst;
                f.worst_ratio = j.worst_ratio;
                f.worst_set = set.name + ", D = " + std::to_string(D);
                f.worst = {static_cast<std::int64_t>(i), attention_inputs(instance, p, i), oracle.value[i], y[i],
                           hex_bits(output, i), j.worst_error, j.worst_bound};
            }
            // The error's growth with T, for the signature.
            for (std::size_t i = 0; i < y.size(); ++i)
                if (magnitude(i) > 0)
                    f.max_abs_e = std::fmax(f.max_abs_e, tolerance::element_error(y[i], oracle.value[i]) / (g * magnitude(i)));
            f.outputs += y.size();
        }
    }
    if (f.outputs < model.params.min_outputs * head_dims.size())
        throw std::logic_error("C-PRC-01 attention probe: fewer outputs than min_outputs at T = " + std::to_string(T));
    return f;
}

}  // namespace

harness::CaseResult attention_accumulator_preservation(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const auto model = tolerance::DotBound::from_catalog(*instance.contract);
    const std::vector<std::int64_t> head_dims = context.int_list("head_dims");
    if (head_dims.empty() || *std::min_element(head_dims.begin(), head_dims.end()) < 1)
        throw std::invalid_argument(instance.id + ": head_dims are one or more head dimensions >= 1");
    std::vector<KFigures> sweep;
    for (const std::int64_t T : context.int_list("K")) sweep.push_back(measure_t(context, model, T, head_dims));
    if (sweep.empty()) throw std::invalid_argument(instance.id + ": the K sweep is empty");

    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.details["statistics"] = "not applicable";
    evidence.details["magnitude"] = "2 W, W = sum_t p_t* |V[t, d]|";
    evidence.judged.unit = "elements";
    const KFigures* failing = nullptr;  // the smallest failing T: where the violation first shows
    const KFigures* worst = &sweep.front();
    evidence.details["head_dims"] = head_dims;
    for (const auto& f : sweep) {
        evidence.details["sweep"].push_back({{"K", f.T},
                                             {"outputs", f.outputs},
                                             {"elements_failed", f.elements_failed},
                                             {"max_error_over_bound", f.worst_ratio},
                                             {"worst_data_set", f.worst_set},
                                             {"max_abs_e", f.max_abs_e}});
        evidence.judged.count += f.outputs;
        if (f.elements_failed > 0 && (!failing || f.T < failing->T)) failing = &f;
        if (f.worst_ratio > worst->worst_ratio) worst = &f;
    }
    std::vector<precision::AccumulatorPoint> points;
    for (const auto& point : sweep) points.push_back({point.T, point.elements_failed});
    spec::Json figures;
    const std::string signature = precision::accumulator_signature(points, figures);
    const KFigures& f = failing ? *failing : *worst;
    evidence.details["judged_K"] = f.T;
    evidence.details["worst_data_set"] = f.worst_set;
    evidence.figure_name = harness::figures::dot_error.name;
    evidence.figure = f.worst_ratio;
    evidence.bound = 1.0;
    evidence.worst = f.worst;
    if (!failing)
        return harness::case_verdict(instance, "", "every element within dot_bound over the key sweep",
                                       std::move(evidence));
    evidence.details["signature_figures"] = figures;
    return harness::case_verdict(
        instance, signature,
        "T=" + std::to_string(f.T) + ": " + std::to_string(f.elements_failed) + " of " + std::to_string(f.outputs) +
            " elements beyond dot_bound, worst |y - y*| = " + ref::number_text(f.worst.error) + " against " +
            ref::number_text(f.worst.bound) + " (" + f.worst_set + ")" +
            (signature == "narrow-accumulator" ? ": the error grows like a narrower accumulator's"
                                               : ", but not at every longer key length: a failure that does not grow with T"),
        std::move(evidence));
}

}  // namespace kcs::suites
