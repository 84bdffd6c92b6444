#include "precision_signatures.hpp"

#include <algorithm>

namespace kcs::suites::precision {

namespace {

bool failed(const AccumulatorPoint& p) {
    return p.stalled || p.elements_failed > 0 || !p.mean_pass || !p.variance_pass;
}

// The per-element or statistical face of a narrower accumulator at one K.
bool too_much_error(const AccumulatorPoint& p) { return p.stalled || p.elements_failed > 0 || !p.variance_pass; }

}  // namespace

std::string accumulator_signature(const std::vector<AccumulatorPoint>& sweep, spec::Json& figures) {
    std::vector<AccumulatorPoint> by_k = sweep;
    std::sort(by_k.begin(), by_k.end(), [](const auto& a, const auto& b) { return a.K < b.K; });
    const auto first = std::find_if(by_k.begin(), by_k.end(), failed);
    if (first == by_k.end()) return {};
    spec::Json failing = spec::Json::array();
    for (const auto& p : by_k)
        if (failed(p)) failing.push_back(p.K);
    const bool persists = std::all_of(first, by_k.end(), too_much_error);
    figures = {{"failing_K", failing}, {"fails_at_every_larger_K", persists}};
    if (first->stalled) return "stalled-sum-of-ones";
    if (too_much_error(*first)) return persists ? "narrow-accumulator" : "unmatched";
    return "biased-rounding";
}

std::string stability_signature(const std::vector<StabilitySet>& sets, const std::string& provoked, bool nan_only,
                                 spec::Json& figures) {
    bool baseline_passes = true;
    std::size_t provoking = 0, elsewhere = 0, nonfinite = 0, nan = 0, drifting = 0, over = 0;
    for (const auto& s : sets) {
        if (s.role == StabilityRole::baseline)
            baseline_passes = baseline_passes && s.nonfinite == 0 && s.elements_over_bound == 0 &&
                              s.rows_over_sum_bound == 0;
        (s.role == StabilityRole::provoking ? provoking : elsewhere) += s.nonfinite;
        nonfinite += s.nonfinite;
        nan += s.nan;
        drifting += s.rows_over_sum_bound;
        over += s.elements_over_bound;
    }
    const bool all_nan = nan == nonfinite;
    figures = {{"baseline_passes", baseline_passes},
               {"nonfinite_in_provoking_sets", provoking},
               {"nonfinite_elsewhere", elsewhere},
               {"nonfinite_all_nan", all_nan}};
    if (nonfinite > 0)
        return elsewhere == 0 && baseline_passes && (all_nan || !nan_only) ? provoked : "unmatched";
    if (drifting > 0) return "row-sum-drift";
    return over > 0 ? "unmatched" : "";
}

std::string compute_precision_signature(const ComputePrecisionFigures& f, spec::Json& figures) {
    figures = {{"p_eff", f.p_eff},
               {"required", f.required},
               {"exact_above_p_eff", f.exact_above},
               {"range_coerced", f.range_coerced}};
    if (f.range_coerced > 0) return "range-coercion";
    if (f.p_eff < f.required) return f.exact_above == 0 ? "reduced-input-mantissa" : "unmatched";
    return f.inexact > 0 ? "unmatched" : "";
}

}  // namespace kcs::suites::precision
