// C-PRC-04 Conversion rounding (spec/v1/classes/C-PRC-04.yaml) for
// attention: the final store of O in the f16 and bf16 output
// configurations, judged by the bitwise_rne model (store_judging.hpp).
// Attention's outputs are never exact sums, so there is no kind (a) probe;
// check (b) runs on `samples` outputs of N(0,1) Q, K and V: every O[s, d]
// whose y* lies farther from each rounding midpoint of the output dtype than
// E, attention's accumulator-side bound (C-PRC-02's element bound without
// its output term, c gamma(T, u_acc) M with M from stability_magnitude),
// widened by the oracle's own error (oracle_error), must store as RN_out(y*)
// bit for bit. The shape keeps E small against the output spacing, so that
// most outputs qualify (about 83% in f16 and 97% in bf16), and each output
// cheap. E is c u (L32 W + 2 (D + 1) A W + G) whatever T below 32, so the
// shape shrinks its factors: D = 4 (the default scale 1/2 is exact, and the
// score magnitude A and the 2 (D + 1) A term stay small) and T = 8 keys, whose
// weighted sums average few values and so stay near W = sum_t p |V|, which E
// grows with; queries enough for `samples`.
// An f32 output is as wide as the accumulator: no narrowing store, and the
// plan makes the configuration NOT_APPLICABLE.
#include <cstdint>
#include <string>
#include <utility>

#include "../tolerance/bitwise_rne.hpp"
#include "../tolerance/stability_bound.hpp"
#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "kcs/reference/bounds.hpp"
#include "../accuracy/store_judging.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;

constexpr std::int64_t kHeadDim = 4;
constexpr std::int64_t kKeys = 8;

void judge_sampled_outputs(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally,
                            spec::Json& details) {
    const harness::Instance& instance = context.instance();
    const auto& prc02 = accumulator_side_class(context, "C-PRC-02");
    const double c = tolerance::StabilityBound::from_catalog(prc02).c;
    const double u_acc = ref::info(f.acc).unit_roundoff;
    const std::int64_t samples = context.integer("samples");
    const std::int64_t queries = (samples + kHeadDim - 1) / kHeadDim;
    const ref::Normal normal{0.0, 1.0};
    const auto p = attention::drawn_problem(instance, context.claims(), queries, kKeys, kHeadDim, normal, normal, normal, context.seed(),
                                            "N(0,1) Q, K and V, D = 4, T = 8");
    const auto oracle = attention::attention_reference(instance, p);
    const harness::HostTensor o = attention::run_attention(context, p);
    const double gamma = ref::gamma(kKeys, u_acc);
    std::size_t qualifying = 0;
    for (std::size_t i = 0; i < oracle.value.size(); ++i) {
        const double y = oracle.value[i];
        const double width = c * gamma * attention::stability_magnitude(oracle, p, i, u_acc, f.out) +
                             attention::oracle_error(oracle, p, i);
        if (!clear_of_midpoints(f.out, y, width)) continue;
        ++qualifying;
        if (StoreRecord* kept = tally.judge(store(i, p.data_set, y, f.out, bits_at(o, i), width), false))
            kept->inputs = attention::attention_inputs(instance, p, i);
    }
    details["accumulator_side_bound"] = model_citation(prc02);
    details["sampled_outputs"] = oracle.value.size();
    details["qualifying_outputs"] = qualifying;
}

}  // namespace

harness::CaseResult attention_conversion_rounding(harness::ProbeContext& context) {
    return judge_sampled_stores(context, [&](const ConfigFormats& f, StoreTally& tally, spec::Json& details) {
        judge_sampled_outputs(context, f, tally, details);
    });
}

}  // namespace kcs::suites
