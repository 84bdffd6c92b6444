// C-PRC-03 Declared compute precision, no silent coercion
// (spec/v1/classes/C-PRC-03.yaml) for attention. The protocol: Q and K such
// that for every query one key's score exceeds all others by at least 150,
// so that the exact weights are 1 and below 2^-150 (zero in every output
// dtype); V carries the identity, low-bit and range entries of matmul's
// probes (compute_precision_probes.hpp); the output must be the selected
// key's V row exactly, and p_eff is estimated on V.
//
// With D = T = S = M (the catalog's query count) and the scale attribute 1,
// Q = 200 I and K = I: query s scores 200 on key s and 0 elsewhere, so
// O = V. A probe matrix X wider than M (the low-bit blocks) runs as several
// V blocks of M columns, columns being independent outputs.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../tolerance/exact_when_representable.hpp"
#include "../tolerance/model_citation.hpp"
#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "../precision/compute_precision_probes.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"

namespace kcs::suites {

namespace {

using namespace attention;
using namespace precision;

constexpr double kDominantScore = 200;
constexpr double kScale = 1.0;  // the scores are Q K^T as written  // the selected key's lead: at least 150, exp(-200) < 2^-288

// The selecting problem for V block `block` [size, size] of X.
AttentionProblem selecting_problem(const ExactnessProbe& p, std::int64_t size, std::int64_t block) {
    AttentionProblem a;
    a.queries = a.keys = a.head_dim = size;
    a.scale = kScale;
    a.data_set = p.name;
    const auto n = static_cast<std::size_t>(size * size);
    a.q.assign(n, 0.0);
    a.k.assign(n, 0.0);
    a.v.resize(n);
    for (std::int64_t i = 0; i < size; ++i) {
        a.q[static_cast<std::size_t>(i * size + i)] = kDominantScore;
        a.k[static_cast<std::size_t>(i * size + i)] = 1.0;
        for (std::int64_t j = 0; j < size; ++j)
            a.v[static_cast<std::size_t>(i * size + j)] = p.expected[static_cast<std::size_t>(i * p.n + block * size + j)];
    }
    return a;
}

struct Figures {
    tolerance::ExactnessTally tally;
    spec::Json probes = spec::Json::array();
};

void run_probe(harness::ProbeContext& context, const ExactnessProbe& p, std::int64_t size, Figures& f) {
    const harness::Instance& instance = context.instance();
    const ref::Format out = float_format(instance.config.output);
    tolerance::ExactnessTally here;
    for (std::int64_t block = 0; block * size < p.n; ++block) {
        AttentionProblem a = selecting_problem(p, size, block);
        const ref::AttentionResult oracle = attention_reference(instance, a);
        for (std::size_t i = 0; i < a.v.size(); ++i)
            if (ref::round_to(out, oracle.value[i]) != a.v[i])
                throw std::logic_error("C-PRC-03 attention probe '" + p.name + "': y* of element " +
                                       std::to_string(i) + " does not round to the selected V entry");
        const harness::HostTensor output = run_attention(context, a);
        const std::vector<double> y = values(output);
        for (std::size_t i = 0; i < y.size(); ++i) {
            const std::size_t row = i / static_cast<std::size_t>(size), col = i % static_cast<std::size_t>(size);
            const std::size_t x_index = row * static_cast<std::size_t>(p.n) + static_cast<std::size_t>(block * size) + col;
            here.judge(y[i], a.v[i], p.operand_bits[x_index], p.range, [&] {
                harness::WorstElement w;
                w.index = static_cast<std::int64_t>(i);
                w.inputs = attention_inputs(instance, a, i);
                w.got_bits = hex_bits(output, i);
                return w;
            });
        }
    }
    f.probes.push_back({{"probe", p.name}, {"V_blocks", (p.n + size - 1) / size}, {"inexact", here.inexact}});
    f.tally.merge(here);
}

}  // namespace

harness::CaseResult attention_declared_compute_precision(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const auto model = tolerance::ExactWhenRepresentable::from_catalog(*instance.contract);
    const std::int64_t size = context.integer("M");
    const std::string& v_dtype = instance.config.inputs.at(2);
    const ref::Format in = float_format(v_dtype);
    const ref::Format out = float_format(instance.config.output);
    std::vector<ExactnessProbe> probes{identity_probe(in, out, {size, size, size}, context.seed(), 1),
                                       low_bit_probe(ref::info(in).precision, size, context.seed(), 1)};
    if (in == ref::Format::f32) probes.push_back(range_probe(size, context.seed()));

    Figures f;
    for (const ExactnessProbe& p : probes) run_probe(context, p, size, f);
    tolerance::EffectivePrecision precision(ref::info(in).precision);
    f.tally.feed(precision);

    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.details["probes"] = f.probes;
    evidence.judged = {f.tally.elements, "elements"};
    evidence.details["p_eff"]["V"] = {{"p_eff", precision.value()}, {"required", model.required_bits(v_dtype)}};
    evidence.figure_name = harness::figures::p_eff_of_v.name;
    evidence.figure = precision.value();
    evidence.bound = model.required_bits(v_dtype);
    spec::Json figures;
    const std::string signature = precision::compute_precision_signature(
        {f.tally.range_coerced, precision.value(), model.required_bits(v_dtype), precision.exact_above(), f.tally.inexact}, figures);
    if (!signature.empty()) evidence.details["signature_figures"] = figures;
    if (f.tally.range_coerced > 0) {
        evidence.worst = f.tally.first_coerced;
        return harness::case_verdict(instance, signature,
                            std::to_string(f.tally.range_coerced) + " range-probe outputs with |y*| above 65504 came back as " +
                                f.tally.first_coerced.got_bits + " (inf or 65504): " + v_dtype +
                                " inputs were converted to f16",
                            std::move(evidence));
    }
    if (f.tally.inexact > 0) evidence.worst = f.tally.first_inexact;
    if (precision.value() < model.required_bits(v_dtype))
        return harness::case_verdict(instance, signature,
                            "p_eff of V is " + std::to_string(precision.value()) + " significand bits, below the " +
                                std::to_string(model.required_bits(v_dtype)) + " of " + v_dtype +
                                (signature == "reduced-input-mantissa"
                                     ? ": its inputs were rounded to a narrower format before multiplying"
                                     : "; but " + std::to_string(precision.exact_above()) +
                                           " elements with wider operands came back exact: not a narrower "
                                           "format's cut"),
                            std::move(evidence));
    if (f.tally.inexact > 0)
        return harness::case_verdict(instance, signature,
                            std::to_string(f.tally.inexact) + " outputs differ from the selected V entry although p_eff "
                                                        "meets its bound",
                            std::move(evidence));
    return harness::case_verdict(instance, "",
                        "every output is the selected key's V entry; p_eff of V " + std::to_string(precision.value()),
                        std::move(evidence));
}

std::vector<harness::Invocation> attention_compute_precision_forms(const harness::Instance& instance) {
    return {declared_attention(instance, false, kScale)};
}

}  // namespace kcs::suites
