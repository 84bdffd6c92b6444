// C-CMP-03 Contraction and reassociation (spec/v1/classes/C-CMP-03.yaml)
// for layernorm and rmsnorm.
//
// Both kinds of probe run at every shape [rows, L] of the `shapes` parameter.
//
// Contraction probes, configurations with an f32 output: rows of L entries,
// one row from normal(0,1) repeated. Call A, twice, with gamma = 1 and
// beta = +0, reads the adapter's own normalised rows r (xhat, or x * rrms)
// bit for bit; the two readings must agree (else ERROR: the precondition).
// Call B uses gamma from uniform(1, 2) (stream 2^16 + 2) and, for
// layernorm, beta = -RN(r * gamma) of the first row, rounded to beta's
// dtype, so that the unfused step RN(RN(r * gamma) + beta) is the exact
// difference RN(r * gamma) + beta (+0 in f32) while a fused one keeps the
// product's rounding error; each row is judged against its own r. rmsnorm
// has no addition to fuse: RN(RN(r * gamma)) is its only evaluation under
// either claim, and anything else is a regrouping (rrms * gamma first).
//
// IEEE probes, every configuration: layernorm rows of entries 1.5 (xhat is
// +0) with negative gamma and beta = -0, every output -0; rmsnorm rows from
// normal(0,1) holding -0 at the first, middle and last positions (-0 where
// gamma > 0, +0 where gamma < 0).
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "../tolerance/kind_tally.hpp"
#include "../pointwise/contraction_signature.hpp"
#include "../exactness/exactness_common.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/compensated_sum.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "norm_probes.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;
using precision::ReducingOperator;

constexpr const char* kFused = "fused-where-unfused-declared";
constexpr const char* kReassociated = "reassociated";
constexpr const char* kFiniteMathFolding = "finite-math-folding";

constexpr std::uint32_t kGammaStream = ref::auxiliary_stream(2);  // 2^16 + 2

// A probe shape: rows of L entries.
struct Shape {
    std::int64_t rows, length;
    std::string text;
};

bool is_layernorm(const harness::Instance& instance) {
    return precision::reducing_operator(instance) == ReducingOperator::layernorm;
}

// The call on x [rows, L], gamma and (layernorm) beta, given as tensors.
std::vector<HostTensor> run_norm(harness::ProbeContext& context, const HostTensor& x, const HostTensor& gamma,
                                 const HostTensor* beta) {
    std::vector<HostTensor> inputs{x, gamma};
    if (beta) inputs.push_back(*beta);
    return context.run(invocation(context.instance(), std::move(inputs), x.shape));
}

// What an element was, among the evaluations the probe tells apart.
enum class Outcome { unfused, fused, reassociated, folded, unmatched };

struct Seen {
    std::string probe;
    std::size_t index = 0;
    std::uint32_t expected = 0;  // the evaluation the claim requires (unfused, or the IEEE value)
    std::uint32_t fused = 0;     // contraction probes: the fused evaluation
    std::uint32_t got = 0;
    std::vector<std::string> inputs;
};

// Every element's outcome, counted with the first of each (kind_tally.hpp).
struct Tally {
    tolerance::KindTally<Outcome, Seen> outcomes;
    std::size_t ieee_wrong = 0;  // IEEE probe elements other than the definition's value
    spec::Json elements_by_shape = spec::Json::object();
};

// ---------------------------------------------------------------- contraction probes

struct ContractionRow {
    HostTensor x, ones, zeros;
};

// Call A twice: the normalised row, bit for bit, or an error when the two readings differ.
bool read_normalised_row(harness::ProbeContext& context, const ContractionRow& row, HostTensor& normalised,
                         std::string& why) {
    const bool layernorm = is_layernorm(context.instance());
    const auto first = run_norm(context, row.x, row.ones, layernorm ? &row.zeros : nullptr);
    const auto second = run_norm(context, row.x, row.ones, layernorm ? &row.zeros : nullptr);
    for (std::size_t i = 0; i < first[0].elements(); ++i)
        if (first[0].bits(i) != second[0].bits(i)) {
            why = "the normalised row differs between two identical calls at element " + std::to_string(i) + " (" +
                  hex_bits(first[0], i) + " then " + hex_bits(second[0], i) +
                  "): the C-CMP-03 precondition fails (C-ORD-02 judges reproducibility)";
            return false;
        }
    normalised = first[0];
    return true;
}

// Whether a + b is exact in f64 (TwoSum leaves no error).
bool exact_sum(double a, double b) { return ref::two_sum(a, b).lo == 0; }

// x [rows, L]: one row from normal(0, 1), repeated.
HostTensor repeated_row(const std::string& dtype, const Shape& shape, std::uint64_t seed) {
    const HostTensor row = generate(dtype, {1, shape.length}, ref::Normal{0, 1}, seed, 0);
    HostTensor x = HostTensor::zeros(row.dtype, {shape.rows, shape.length});
    for (std::size_t i = 0; i < x.elements(); ++i) x.set_bits(i, row.bits(i % row.elements()));
    return x;
}

// Judges call B against the rows r read in call A. Returns an ERROR result
// when the precondition fails, otherwise nothing (the tally has the elements).
std::optional<harness::CaseResult> contraction_probe(harness::ProbeContext& context, const Shape& shape, Tally& tally) {
    const harness::Instance& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const bool layernorm = is_layernorm(instance);
    const std::string& gamma_dtype = instance.config.inputs.at(1);
    const ref::Format gamma_format = float_format(gamma_dtype);
    const auto n = static_cast<std::size_t>(shape.length);

    ContractionRow row{repeated_row(f.in_name, shape, context.seed()),
                       from_values(gamma_dtype, {shape.length}, std::vector<double>(n, 1.0)), {}};
    if (layernorm) row.zeros = from_values(instance.config.inputs.at(2), {shape.length}, std::vector<double>(n, 0.0));
    HostTensor normalised;
    std::string why;
    if (!read_normalised_row(context, row, normalised, why)) return harness::verdict_only(harness::Verdict::error, why);
    const std::vector<double> r = values(normalised);

    const HostTensor gamma = tensor_of_bits(
        gamma_dtype, {shape.length},
        ref::fill_bits(gamma_format, ref::Uniform{1, 2}, ref::TensorStream{context.seed(), 1, kGammaStream}, n));
    const std::vector<double> g = values(gamma);
    std::vector<double> product(r.size()), beta_values(n, 0.0);
    for (std::size_t i = 0; i < r.size(); ++i) product[i] = ref::round_to(f.out, r[i] * g[i % n]);  // r * g exact in f64
    HostTensor beta;
    if (layernorm) {
        const std::string& beta_dtype = instance.config.inputs.at(2);
        for (std::size_t j = 0; j < n; ++j) beta_values[j] = -product[j];  // the first row's
        beta = from_values(beta_dtype, {shape.length}, beta_values);       // rounded to beta's dtype
        beta_values = values(beta);
    }
    const auto outputs = run_norm(context, row.x, gamma, layernorm ? &beta : nullptr);
    const double tiny_beta = layernorm ? ref::info(float_format(instance.config.inputs.at(2))).min_normal : 0.0;

    for (std::size_t i = 0; i < r.size(); ++i) {
        const std::size_t j = i % n;
        // The precondition: operands normal numbers of their dtype. A beta
        // that rounds into its subnormal range (r * gamma near zero) is not
        // one, and under subnormals: flush would be read as zero.
        if (layernorm && std::fabs(beta_values[j]) < tiny_beta) continue;
        // r * g has at most 48 significant bits; beta, of the first row's
        // magnitude, makes its sum exact in f64 unless a row's r is far
        // from the first's (then the element cannot tell the evaluations apart).
        if (!exact_sum(product[i], beta_values[j]) || !exact_sum(r[i] * g[j], beta_values[j])) continue;
        const std::uint32_t unfused = ref::encode(f.out, ref::round_to(f.out, product[i] + beta_values[j]));
        const std::uint32_t fused = layernorm ? ref::encode(f.out, r[i] * g[j] + beta_values[j]) : unfused;
        const std::uint32_t got = bits_at(outputs[0], i);
        Outcome o = Outcome::reassociated;
        if (got == unfused) o = Outcome::unfused;
        else if (got == fused) o = Outcome::fused;
        tally.outcomes.add(o, [&] {
            std::vector<std::string> inputs{"normalised row r[" + std::to_string(i) + "]=" + hex(f.out, bits_at(normalised, i)),
                                            "gamma[" + std::to_string(j) + "]=" + hex_bits(gamma, j)};
            if (layernorm) inputs.push_back("beta[" + std::to_string(j) + "]=" + hex_bits(beta, j));
            return Seen{"contraction, " + std::string(layernorm ? "r * gamma + beta " : "r * gamma ") + shape.text, i,
                        unfused, fused, got, std::move(inputs)};
        });
    }
    return std::nullopt;
}

// ---------------------------------------------------------------- IEEE probes

void judge_ieee(const ConfigFormats& f, Tally& tally, const std::string& probe, std::size_t index, bool negative_zero,
                std::uint32_t got, std::vector<std::string> inputs) {
    const std::uint32_t expected = ref::encode(f.out, negative_zero ? -0.0 : 0.0);
    Outcome o = Outcome::unfused;  // the definition's value
    if (got != expected)
        o = contraction::folded_by_finite_math(f.out, negative_zero ? -0.0 : 0.0, got) ? Outcome::folded
                                                                                     : Outcome::unmatched;
    if (o != Outcome::unfused) ++tally.ieee_wrong;
    tally.outcomes.add(o, [&] { return Seen{probe, index, expected, expected, got, std::move(inputs)}; });
}

// layernorm: rows of 1.5 (xhat = +0), gamma = -uniform(1, 2), beta = -0: every output -0.
void layernorm_ieee_probe(harness::ProbeContext& context, const Shape& shape, Tally& tally) {
    const harness::Instance& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const auto n = static_cast<std::size_t>(shape.length);
    const HostTensor x = from_values(f.in_name, {shape.rows, shape.length},
                                     std::vector<double>(static_cast<std::size_t>(shape.rows) * n, 1.5));
    std::vector<double> g =
        ref::fill_values(float_format(instance.config.inputs.at(1)), ref::Uniform{1, 2},
                         ref::TensorStream{context.seed(), 1, kGammaStream}, n);
    for (double& v : g) v = -v;
    const HostTensor gamma = from_values(instance.config.inputs.at(1), {shape.length}, g);
    const HostTensor beta = from_values(instance.config.inputs.at(2), {shape.length}, std::vector<double>(n, -0.0));
    const auto outputs = run_norm(context, x, gamma, &beta);
    for (std::size_t i = 0; i < x.elements(); ++i)
        judge_ieee(f, tally, "IEEE, rows of 1.5 with gamma < 0 and beta = -0 " + shape.text, i, true,
                   bits_at(outputs[0], i),
                   {"x[" + std::to_string(i / n) + ",:]=1.5", "gamma[" + std::to_string(i % n) + "]=" +
                                                               hex_bits(gamma, i % n),
                    "beta[" + std::to_string(i % n) + "]=" + hex_bits(beta, i % n)});
}

// rmsnorm: -0 at the first, middle and last positions of normal(0,1) rows,
// gamma from normal(0,1): -0 * rrms * gamma is a zero of gamma's opposite sign.
void rmsnorm_ieee_probe(harness::ProbeContext& context, const Shape& shape, Tally& tally) {
    const harness::Instance& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const auto n = static_cast<std::size_t>(shape.length);
    HostTensor x = generate(f.in_name, {shape.rows, shape.length}, ref::Normal{0, 1}, context.seed(), 0);
    const HostTensor gamma =
        generate(instance.config.inputs.at(1), {shape.length}, ref::Normal{0, 1}, context.seed(), 1);
    const std::uint32_t minus_zero = ref::encode(f.in, -0.0);
    std::vector<std::size_t> zeros;
    for (std::size_t r = 0; r < static_cast<std::size_t>(shape.rows); ++r)
        for (const auto p : {ref::Position::first, ref::Position::middle, ref::Position::last}) {
            const std::size_t i = r * n + ref::position_index(p, n);
            if (!zeros.empty() && zeros.back() == i) continue;  // a short row: the positions coincide
            zeros.push_back(i);
            x.set_bits(i, minus_zero);
        }
    const auto outputs = run_norm(context, x, gamma, nullptr);
    const std::vector<double> g = values(gamma);
    for (const std::size_t i : zeros)
        judge_ieee(f, tally, "IEEE, -0 in a normal(0,1) row " + shape.text, i, !std::signbit(g[i % n]),
                   bits_at(outputs[0], i),
                   {"x[" + std::to_string(i / n) + "," + std::to_string(i % n) + "]=" + hex_bits(x, i),
                    "gamma[" + std::to_string(i % n) + "]=" + hex_bits(gamma, i % n)});
}

// ---------------------------------------------------------------- verdict

harness::CaseResult verdict_of(const harness::ProbeContext& context, const Tally& tally, bool contraction_run) {
    const harness::Instance& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const std::string claim = context.claims().at("fp_contract");
    const bool contract_on = claim == "on";
    harness::Evidence evidence;
    evidence.details = {{"bound", model_citation(*instance.contract)},
                        {"fp_contract", claim},
                        {"elements", tally.outcomes.elements()},
                        {"contraction_probes", contraction_run ? "run" : "not run: the output dtype is " + f.out_name},
                        {"unfused_or_ieee", tally.outcomes.count(Outcome::unfused)},
                        {"fused", tally.outcomes.count(Outcome::fused)},
                        {"reassociated", tally.outcomes.count(Outcome::reassociated)},
                        {"signed_zero_folded", tally.outcomes.count(Outcome::folded)},
                        {"unmatched", tally.outcomes.count(Outcome::unmatched)},
                        {"elements_by_shape", tally.elements_by_shape}};
    evidence.figure_name = harness::figures::unmatched_elements.name;
    evidence.judged = {tally.outcomes.elements(), "elements"};
    const std::size_t fused_off = contract_on ? 0 : tally.outcomes.count(Outcome::fused);
    const std::size_t wrong = fused_off + tally.outcomes.count(Outcome::reassociated) + tally.outcomes.count(Outcome::folded) +
                              tally.outcomes.count(Outcome::unmatched);
    evidence.figure = static_cast<double>(wrong);
    evidence.bound = 0;
    if (wrong == 0)
        return passed(instance, std::to_string(tally.outcomes.elements()) + " elements each an allowed evaluation under fp_contract: " +
                          claim,
                      std::move(evidence));

    spec::Json figures;
    const std::string signature =
        contraction::signature({contract_on, tally.outcomes.count(Outcome::fused), tally.outcomes.count(Outcome::reassociated),
                                tally.outcomes.count(Outcome::folded), tally.outcomes.count(Outcome::unmatched), 0},
                               figures);
    evidence.details["signature_figures"] = std::move(figures);
    // The element that shows it; for unmatched, the least explained first.
    const Outcome defining = signature == kFused ? Outcome::fused
                             : signature == kReassociated ? Outcome::reassociated
                             : signature == kFiniteMathFolding ? Outcome::folded
                                                               : Outcome::unmatched;
    std::vector<Outcome> shown{defining, Outcome::unmatched, Outcome::reassociated};
    if (!contract_on) shown.push_back(Outcome::fused);
    shown.push_back(Outcome::folded);
    const auto& [outcome, w] = tally.outcomes.shown(shown);
    evidence.worst = harness::WorstElement{static_cast<std::int64_t>(w.index),
                                           w.inputs,
                                           ref::decode(f.out, w.expected),
                                           ref::decode(f.out, w.got),
                                           hex(f.out, w.got),
                                           std::fabs(ref::decode(f.out, w.got) - ref::decode(f.out, w.expected)),
                                           0};
    evidence.details["worst"] = {{"probe", w.probe},
                                 {"expected_bits", hex(f.out, w.expected)},
                                 {"fused_bits", hex(f.out, w.fused)},
                                 {"got_bits", hex(f.out, w.got)}};
    harness::CaseResult result = failed(
        instance, signature,
        std::to_string(tally.outcomes.count(outcome)) + " of " + std::to_string(tally.outcomes.elements()) + " elements give " +
            signature + " under fp_contract: " + claim + " (e.g. " + w.probe + ", element " +
            std::to_string(w.index) + ": expected " + hex(f.out, w.expected) + ", fused " + hex(f.out, w.fused) +
            ", got " + hex(f.out, w.got) + ")",
        std::move(evidence));
    // Every wrong element from the contraction probe compares call B with
    // the row r call A gave: it takes run-to-run determinism as given (a
    // reduction order that changes per call moves r between the calls).
    if (tally.ieee_wrong == 0) result.assumes = {"C-ORD-02"};
    return result;
}

}  // namespace

harness::CaseResult norm_contraction(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    if (!precision::is_norm(precision::reducing_operator(instance)))
        throw std::invalid_argument(instance.id + ": this C-CMP-03 probe measures layernorm and rmsnorm only");
    Tally tally;
    // Contraction probes only where the output is f32: an f16 or bf16
    // output hides the f32 intermediate the probe reads (the class's scope).
    const bool contraction = formats_of(instance).out == ref::Format::f32;
    for (const auto& s : probe_shapes(instance, 2, "[rows, L]")) {
        const Shape shape{s[0], s[1], shape_text(s)};
        const std::size_t before = tally.outcomes.elements();
        if (contraction)
            if (auto error = contraction_probe(context, shape, tally)) return *std::move(error);
        const std::size_t ieee_from = tally.outcomes.elements();
        if (is_layernorm(instance))
            layernorm_ieee_probe(context, shape, tally);
        else
            rmsnorm_ieee_probe(context, shape, tally);
        tally.elements_by_shape[shape.text] = {{"contraction", ieee_from - before}, {"ieee", tally.outcomes.elements() - ieee_from}};
    }
    return verdict_of(context, tally, contraction);
}

}  // namespace kcs::suites
