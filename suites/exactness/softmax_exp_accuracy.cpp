// C-CMP-01 Approximation accuracy (spec/v1/classes/C-CMP-01.yaml) for the
// exponential inside softmax. The protocol's rows make each probability the
// exponential itself: entry 0 is 0 (the row maximum), every other logit lies
// in [-104, ln(2^-30)], so every other exponential is below 2^-30, the f32
// denominator is exactly 1 in any order, and y[r, j] = RN_out(exp(x[r, j])).
// Each output is judged by the ulp_table model against cr = RN_out(exp(x)),
// with the error recorded per sub-domain and, in the core, per input binade.
// The rows and their judging are shared with attention (exp_probe_rows.hpp).
#include <cmath>
#include <numbers>

#include "exactness_common.hpp"
#include "exactness_probes.hpp"
#include "exp_probe_rows.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../tolerance/ulp_table.hpp"

namespace kcs::suites {

namespace exactness {

namespace {

// The probe rows of C-CMP-01's measurement protocol.
constexpr std::int64_t kRowLength = kExpProbeRowLength;
constexpr double kLowestLogit = -104;
constexpr int kLargestExpLog2 = -30;                              // every exponential but the row maximum's below 2^-30
constexpr std::uint32_t kLogitStream = ref::auxiliary_stream(2);  // stream 2^16 + 2

// The logit interval's end patterns in the input dtype: the largest value at
// or below ln(2^-30) (so its exponential stays below 2^-30 after rounding)
// and -104. Negative values order their bit patterns by magnitude, so every
// integer between the two patterns is a logit of the interval.
std::pair<std::int64_t, std::int64_t> logit_patterns(ref::Format in) {
    const double top = value_at_or_below(in, kLargestExpLog2 * std::numbers::ln2);
    return {ref::encode(in, top), ref::encode(in, value_at_or_below(in, kLowestLogit))};
}

}  // namespace

std::int64_t exp_probe_rows(std::int64_t samples) { return (samples + kRowLength - 2) / (kRowLength - 1); }

harness::HostTensor exp_probe_logits(const ConfigFormats& f, std::uint64_t seed, std::int64_t rows) {
    const auto [low, high] = logit_patterns(f.in);
    const auto drawn =
        draw_integers(seed, 0, kLogitStream, 0, static_cast<std::size_t>(rows * (kRowLength - 1)), low, high);
    std::vector<std::uint32_t> bits(static_cast<std::size_t>(rows * kRowLength), 0);  // entry 0 of each row: +0
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t j = 1; j < kRowLength; ++j)
            bits[static_cast<std::size_t>(r * kRowLength + j)] =
                static_cast<std::uint32_t>(drawn[static_cast<std::size_t>(r * (kRowLength - 1) + j - 1)]);
    return tensor_of_bits(f.in_name, {rows, kRowLength}, bits);
}

harness::CaseResult judge_exp_probabilities(harness::ProbeContext& context, const harness::HostTensor& x,
                                            const harness::HostTensor& probabilities,
                                            const std::string& operand_name, const harness::HostTensor& operand) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const double bound = ulp_table_entry(instance.contract->tolerance.params, "exp", f.out_name);
    const bool flush_claimed = context.claims().at("subnormals") == "flush";
    const auto x_values = values(x);

    UlpTally tally(bound);
    std::vector<double> cr(x_values.size());
    for (std::size_t i = 0; i < x_values.size(); ++i) {
        // The inputs of every configuration are values of its output dtype.
        cr[i] = ref::correctly_rounded_value(ref::UnaryFunction::exp, f.out, x_values[i]);
        const double error = table_error(f.out, bits_at(probabilities, i), cr[i], flush_claimed);
        tally.add(i, x_values[i], ulp_subdomain(f.out, "exp", x_values[i], cr[i], false), error);
    }

    harness::Evidence e;
    e.figure_name = harness::figures::max_ulp_error.name;
    e.figure = tally.worst().error;
    e.bound = bound;
    e.judged = {x_values.size(), "elements"};
    const auto& w = tally.worst();
    const std::size_t row = w.index / kRowLength;
    const std::uint32_t got = bits_at(probabilities, w.index);
    e.worst = harness::WorstElement{static_cast<std::int64_t>(w.index),
                                    depends_on_range(operand_name, operand, row * kRowLength, kRowLength),
                                    cr[w.index],
                                    ref::decode(f.out, got),
                                    hex(f.out, got),
                                    w.error,
                                    bound};
    e.details = {{"bound", model_citation(*instance.contract)},
                 {"function", "exp"},
                 {"outputs", x_values.size()},
                 {"elements_over_bound", tally.failed()},
                 {"subdomains", subdomain_record(tally)},
                 {"core_binades", core_binade_record(tally)},
                 {"worst_input", hex(f.in, bits_at(x, w.index))}};
    spec::Json signature_figures;
    const std::string signature = approximation_signature(tally, f.out, signature_figures);
    if (!signature.empty()) e.details["signature_figures"] = std::move(signature_figures);
    if (signature.empty())
        return passed(instance, "exp within " + std::to_string(static_cast<int>(bound)) + " ulp of cr on all " +
                          std::to_string(x_values.size()) + " probabilities",
                      std::move(e));
    harness::CaseResult result =
        failed(instance, signature,
               std::to_string(tally.failed()) + " probabilities exceed " + std::to_string(static_cast<int>(bound)) +
                   " ulp of cr = RN(exp(x)); worst " + ref::number_text(w.error) +
                   " ulp at x = " + hex(f.in, bits_at(x, w.index)),
               std::move(e));
    if (failures_only_at_subnormals(tally, f.out)) result.assumes = {"C-CMP-02"};
    return result;
}

}  // namespace exactness

harness::CaseResult exp_accuracy_softmax(harness::ProbeContext& context) {
    using namespace exactness;
    const ConfigFormats f = formats_of(context.instance());
    const std::int64_t rows = exp_probe_rows(context.integer("samples"));
    const harness::HostTensor x = exp_probe_logits(f, context.seed(), rows);
    const auto outputs = context.run(invocation(context.instance(), {x}, {rows, kExpProbeRowLength}));
    return judge_exp_probabilities(context, x, outputs[0], "x", x);
}

}  // namespace kcs::suites
