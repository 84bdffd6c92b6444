// The one judging loop of the models that bound each element's error
// (dot_bound, stability_bound and the models built on their terms): a
// probe supplies the adapter's values, the oracle's and each element's
// bound from its model; this decides every element, counts, and keeps the
// worst. The rule is SPEC.md section 3's: an element holds when it is
// finite and |y - y*| <= bound; the case figure is the largest
// |y - y*| / bound (headline bound 1), +inf for a non-finite y or an error
// against a zero bound, so that a verifier re-judging the figure
// (reports/src/rejudge.cpp, through spec::figure_holds) reaches the
// verdict the counts reached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "kcs/harness/verdict.hpp"

namespace kcs::suites::tolerance {

// |y - y*| as the model counts it: +inf for a non-finite y.
double element_error(double got, double exact);
// value / bound: 0 for 0, +inf for anything else over a zero bound.
double ratio_to_bound(double value, double bound);
// error / bound: 0 for an exact element, +inf for a non-finite y or an error against a zero bound.
double error_ratio(double got, double error, double bound);
// The element rule: y finite and |y - y*| <= bound.
bool element_holds(double got, double exact, double bound);

struct ElementJudgement {
    std::uint64_t judged = 0;      // elements decided
    std::uint64_t over_bound = 0;  // elements that broke their bound (a non-finite y included)
    std::uint64_t nonfinite = 0;   // of the judged, y not finite
    std::uint64_t nan = 0;         // of those, NaN
    std::optional<std::size_t> first_nonfinite;
    // The element with the largest error / bound, the first of equals
    // (index into the judged span); set once anything is judged.
    std::optional<std::size_t> worst;
    double worst_ratio = 0, worst_error = 0, worst_bound = 0;

    // Decides one element and says whether it held (the loop below calls
    // it; a model whose own check walks rows or orders calls it directly).
    bool judge(std::size_t index, double got, double exact, double bound);

    bool pass() const { return judged > 0 && over_bound == 0; }

    // The case figure: the worst ratio against the headline bound 1, the
    // count judged, and the worst element as `describe(worst)` records it.
    template <class Describe>
    void record(harness::Evidence& evidence, std::string figure_name, const std::string& unit,
                Describe&& describe) const {
        evidence.figure_name = std::move(figure_name);
        evidence.figure = worst_ratio;
        evidence.bound = 1;
        evidence.judged = {judged, unit};
        if (worst) evidence.worst = describe(*worst);
    }
};

// Judges got[i] against exact[i] within bound_of(i) for every i. Throws
// std::invalid_argument when got and exact differ in length.
template <class BoundOf>
ElementJudgement judge_elements(std::span<const double> got, std::span<const double> exact, BoundOf&& bound_of);

void check_lengths(std::size_t got, std::size_t exact);

template <class BoundOf>
ElementJudgement judge_elements(std::span<const double> got, std::span<const double> exact, BoundOf&& bound_of) {
    check_lengths(got.size(), exact.size());
    ElementJudgement j;
    for (std::size_t i = 0; i < got.size(); ++i) j.judge(i, got[i], exact[i], bound_of(i));
    return j;
}

}  // namespace kcs::suites::tolerance
