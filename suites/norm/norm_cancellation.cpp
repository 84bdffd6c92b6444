// C-PRC-02 Cancellation and overflow safety (spec/v1/classes/C-PRC-02.yaml)
// for layernorm and rmsnorm.
//
// For each row length L, with gamma ones and beta zeros and again with both
// from normal(0,1): rows from (1) normal(0,1); (5) a large mean and a spread
// of about four input spacings (normal(1e4, 1e-2) for f32 inputs,
// normal(1e3, 2) for f16, normal(1e3, 16) for bf16); (6) constant rows, each
// one c from uniform(512, 1024), so var* = 0; (7) normal(0, 2^-4 * min(max
// finite of the input dtype, 2^64 / sqrt(L))), whose squares overflow f16
// but whose statistics stay within f32. Every element is judged by
// stability_bound (a) finiteness and (b) the element bound with the class's
// magnitude term for the norm (accumulator_side_bound.hpp).
//
// Rows per data set: 8. A one-pass variance turns about half of the rows of
// (5) and (6) NaN (the class's derivation); 8 rows at each L and affine
// leave it no realistic way through, and each row is a whole test of the
// postcondition.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../tolerance/accumulator_side_bound.hpp"
#include "../tolerance/model_citation.hpp"
#include "../tolerance/stability_bound.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "norm_probes.hpp"
#include "../precision/precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace precision;
using tolerance::RowSums;
using tolerance::StabilityBound;
using tolerance::StabilityBoundResult;

constexpr const char* kNegativeVariance = "negative-variance";

// One data set's rows, as exact values of the input dtype.
struct NormRows {
    std::string name;
    StabilityRole role;     // provoking: (5) and (6), where a cancelling variance shows
    std::vector<double> x;    // [rows, L]
    std::int64_t rows = 0;
};

// (5): a spread of about four input spacings at the mean.
ref::Normal large_mean_distribution(const std::string& input) {
    if (input == "f16") return {1e3, 2.0};
    if (input == "bf16") return {1e3, 16.0};
    return {1e4, 1e-2};
}

std::vector<NormRows> data_sets(const std::string& input, std::int64_t rows, std::int64_t L, std::uint64_t seed,
                                const harness::Claims& claims) {
    const auto drawn = [&](const std::string& dtype, std::vector<std::int64_t> shape, const ref::Distribution& d,
                           std::uint32_t tensor) { return draw_as_claimed(dtype, std::move(shape), d, seed, tensor, claims); };
    const ref::Normal large = large_mean_distribution(input);
    std::vector<NormRows> sets;
    sets.push_back({"(1) normal(0,1)", StabilityRole::baseline, drawn(input, {rows, L}, ref::Normal{0.0, 1.0}, 0), rows});
    sets.push_back({"(5) normal(" + ref::number_text(large.mean) + ", " + ref::number_text(large.std) + ")", StabilityRole::provoking,
                    drawn(input, {rows, L}, large, 0), rows});

    NormRows constant{"(6) constant rows, c from uniform(512,1024)", StabilityRole::provoking, {}, rows};
    for (const double c : drawn(input, {rows}, ref::Uniform{512.0, 1024.0}, 0))
        constant.x.insert(constant.x.end(), static_cast<std::size_t>(L), c);
    sets.push_back(std::move(constant));

    const double largest = ref::info(float_format(input)).max_finite;
    const double spread = 0x1p-4 * std::fmin(largest, 0x1p64 / std::sqrt(static_cast<double>(L)));
    sets.push_back({"(7) normal(0, " + ref::number_text(spread) + ")", StabilityRole::other,
                    drawn(input, {rows, L}, ref::Normal{0.0, spread}, 0), rows});
    return sets;
}

// gamma and beta: ones and zeros, or drawn from normal(0,1) (inputs 1 and 2).
struct Affine {
    std::string name;
    std::vector<double> gamma, beta;
};

std::vector<Affine> affines(const harness::Instance& instance, std::int64_t L, std::uint64_t seed,
                            const harness::Claims& claims) {
    const auto n = static_cast<std::size_t>(L);
    std::vector<Affine> out{{"gamma 1, beta 0", std::vector<double>(n, 1.0), std::vector<double>(n, 0.0)}};
    Affine drawn_affine{"gamma, beta from normal(0,1)", draw_as_claimed(instance.config.inputs.at(1), {L}, ref::Normal{0.0, 1.0}, seed, 1, claims), {}};
    if (instance.config.inputs.size() > 2)
        drawn_affine.beta = draw_as_claimed(instance.config.inputs.at(2), {L}, ref::Normal{0.0, 1.0}, seed, 2, claims);
    out.push_back(std::move(drawn_affine));
    return out;
}

// y* and the class's magnitude term of every element.
struct Reference {
    std::vector<double> value;
    std::vector<double> magnitude;
};

Reference reference_of(const ReductionProblem& p, double u_acc, ref::Format out) {
    const auto length = static_cast<std::size_t>(p.k);
    const ref::RowShape shape{static_cast<std::size_t>(p.rows), length};
    Reference r;
    if (p.op == ReducingOperator::layernorm) {
        const auto o = ref::layernorm_oracle(p.a, p.b, p.shift, shape, p.eps);
        r.value = o.value;
        for (std::size_t i = 0; i < o.value.size(); ++i) {
            const std::size_t row = i / length, j = i % length;
            const LayernormElement e{p.b[j],          p.shift[j],           o.normalized[i], o.variance[row],
                                     o.root_mean_square[row], o.mean_abs[row], o.eps};
            r.magnitude.push_back(layernorm_magnitude(p.k, u_acc, out, e, o.value[i]));
        }
    } else {
        r.value = ref::rmsnorm_oracle(p.a, p.b, shape, p.eps).value;
        for (const double y : r.value) r.magnitude.push_back(rmsnorm_magnitude(p.k, u_acc, out, y));
    }
    return r;
}

// What one data set showed at one L and affine.
struct SetFigures {
    std::string name;
    StabilityRole role = StabilityRole::baseline;
    std::int64_t L = 0, rows = 0;
    StabilityBoundResult result;
    harness::WorstElement worst;            // the largest error / bound
    harness::WorstElement first_nonfinite;  // when there is one
};

SetFigures measure(harness::ProbeContext& context, const StabilityBound& model, const NormRows& rows,
                   const Affine& affine, std::int64_t L) {
    const harness::Instance& instance = context.instance();
    const double u_acc = unit_roundoff(accumulate_dtype(instance));
    const double u_out = unit_roundoff(instance.config.output);
    const ref::Format out = float_format(instance.config.output);

    ReductionProblem p;
    p.op = reducing_operator(instance);
    p.rows = rows.rows;
    p.k = L;
    p.a = rows.x;
    p.b = affine.gamma;
    p.shift = affine.beta;
    p.eps = default_eps(instance);
    p.data_set = rows.name + ", " + affine.name;
    const harness::HostTensor output = run_problem(context, p);
    const std::vector<double> y = values(output);
    const Reference ref = reference_of(p, u_acc, out);

    SetFigures f;
    f.name = p.data_set;
    f.role = rows.role;
    f.L = L;
    f.rows = rows.rows;
    f.result = model.check(y, ref.value, ref.magnitude, L, u_acc, u_out, RowSums::skip);
    const auto element = [&](std::size_t i, double bound) {
        harness::WorstElement w;
        w.index = static_cast<std::int64_t>(i);
        w.inputs = element_inputs(instance, p, i);
        w.expected = ref.value[i];
        w.got = y[i];
        w.got_bits = hex_bits(output, i);
        w.error = std::isfinite(y[i]) ? std::fabs(y[i] - ref.value[i]) : std::numeric_limits<double>::infinity();
        w.bound = bound;
        return w;
    };
    f.worst = element(f.result.worst_element, f.result.worst_bound);
    if (f.result.nonfinite_where_finite > 0) {
        const std::size_t i = f.result.first_nonfinite;
        f.first_nonfinite = element(i, model.element_bound(L, u_acc, u_out, ref.magnitude[i], ref.value[i]));
    }
    return f;
}

spec::Json set_details(const SetFigures& f) {
    return {{"L", f.L},
            {"data_set", f.name},
            {"rows", f.rows},
            {"nonfinite_where_finite", f.result.nonfinite_where_finite},
            {"elements_over_bound", f.result.elements_over_bound},
            {"max_error_over_bound", f.result.worst_ratio}};
}

harness::CaseResult verdict_of(const harness::Instance& instance, const std::vector<SetFigures>& sets) {
    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.judged.unit = "elements";
    const SetFigures* nonfinite = nullptr;  // the first, in protocol order
    const SetFigures* worst = nullptr;
    std::vector<StabilitySet> signature_sets;
    for (const auto& f : sets) {
        evidence.details["sets"].push_back(set_details(f));
        evidence.judged.count += f.result.elements;
        signature_sets.push_back({f.role, f.result.nonfinite_where_finite, f.result.nan_where_finite,
                                  f.result.elements_over_bound, 0});
        if (f.result.nonfinite_where_finite > 0 && !nonfinite) nonfinite = &f;
        if (!worst || f.result.worst_ratio > worst->result.worst_ratio) worst = &f;
    }
    if (!worst) throw std::logic_error("norm_cancellation_safety: no rows were run");
    evidence.figure_name = harness::figures::stability_error.name;
    evidence.figure = worst->result.worst_ratio;
    evidence.bound = 1.0;
    evidence.worst = worst->worst;

    spec::Json figures;
    const std::string signature = stability_signature(signature_sets, kNegativeVariance, true, figures);
    if (!signature.empty()) evidence.details["signature_figures"] = figures;
    const auto where = [](const SetFigures& f) { return "L=" + std::to_string(f.L) + ", " + f.name + ": "; };
    if (nonfinite) {
        const SetFigures& f = *nonfinite;
        evidence.figure_name = harness::figures::nonfinite_outputs.name;
        evidence.figure = static_cast<double>(f.result.nonfinite_where_finite);
        evidence.bound = 0;
        evidence.worst = f.first_nonfinite;
        return harness::case_verdict(instance, signature,
                            where(f) + std::to_string(f.result.nonfinite_where_finite) +
                                " outputs inf or NaN where y* is finite (first: element " +
                                std::to_string(f.result.first_nonfinite) + ", got " + f.first_nonfinite.got_bits + ")",
                            std::move(evidence));
    }
    if (worst->result.elements_over_bound > 0)
        return harness::case_verdict(instance, signature,
                            where(*worst) + std::to_string(worst->result.elements_over_bound) +
                                " finite outputs beyond stability_bound (worst |y - y*| = " +
                                ref::number_text(worst->worst.error) + " against " + ref::number_text(worst->worst.bound) +
                                ")",
                            std::move(evidence));
    return harness::case_verdict(instance, "",
                        "every output finite and within stability_bound; worst error/bound " +
                            ref::number_text(worst->result.worst_ratio),
                        std::move(evidence));
}

}  // namespace

harness::CaseResult norm_cancellation_safety(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    if (!is_norm(reducing_operator(instance)))
        throw std::invalid_argument(instance.id + ": this C-PRC-02 probe measures layernorm and rmsnorm only");
    const StabilityBound model = StabilityBound::from_catalog(*instance.contract);
    const std::string& input = instance.config.inputs.at(0);
    std::vector<SetFigures> sets;
    for (const std::int64_t L : context.int_list("row_lengths")) {
        const std::vector<Affine> gamma_beta = affines(instance, L, context.seed(), context.claims());
        for (const std::int64_t count : context.int_list("rows"))
            for (const Affine& affine : gamma_beta)
                for (const NormRows& rows : data_sets(input, count, L, context.seed(), context.claims()))
                    sets.push_back(measure(context, model, rows, affine, L));
    }
    return verdict_of(instance, sets);
}

}  // namespace kcs::suites
