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

}  // namespace kcs::suites::precision
