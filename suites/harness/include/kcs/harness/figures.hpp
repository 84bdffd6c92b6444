// The key figures probes record (Evidence::figure_name) and the one name
// each goes by: kcs run, the HTML report, the comparison tables, the charts
// and report diffs all show a figure through this file, so a figure reads
// the same wherever it appears. Reports written before the names were
// settled recorded longer ones; `earlier` lets them read the same too.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace kcs::harness {

struct Figure {
    const char* name;     // the one name: "misrounded stores", "max ulp error"
    const char* one;      // a count's name when it is exactly 1 ("misrounded store"); empty: not a count
    const char* unit;     // shown after a measure's value ("bits"); empty when the name says it
    const char* meaning;  // what it measures, in words
    const char* earlier[2];  // how earlier reports began its name; empty: as `name`
};

namespace figures {
// Measures: the value follows the name ("max ulp error 0.5").
inline constexpr Figure max_ulp_error{"max ulp error", "", "",
    "the largest distance of an output from cr, the correctly rounded result, in ulps of the output format",
    {"max ulp error", ""}};
inline constexpr Figure order_diameter{"max D/B", "", "",
    "the largest path-dependence diameter D of an element over the orders tried, over its order_bound B",
    {"max D / B", ""}};
inline constexpr Figure order_error{"max |y_pi-y*|/B", "", "",
    "the largest distance of one order's result y_pi from the exact y*, over its order_bound B",
    {"max |y_pi - y*| / B", ""}};
inline constexpr Figure dot_error{"max |y-y*|/dot_bound", "", "",
    "the largest error against the exact result y*, over its dot_bound",
    {"max |y - y*| / dot_bound", ""}};
inline constexpr Figure stability_error{"max |y-y*|/stability_bound", "", "",
    "the largest error against the exact result y*, over its stability_bound",
    {"max |y - y*| / stability_bound", ""}};
inline constexpr Figure row_sum_error{"max |S-1|/row-sum bound", "", "",
    "the largest distance of a softmax row's sum S from 1, over its bound", {"max |S - 1| / row-sum bound", ""}};
inline constexpr Figure error_mean{"|mean e|/limit", "", "",
    "the magnitude of the signed errors' mean, over the limit a preserved accumulator keeps",
    {"|mean e| / its limit", ""}};
inline constexpr Figure error_variance{"var(e)/limit", "", "",
    "the variance of the signed errors, over the limit a preserved accumulator keeps",
    {"variance of e / its limit", ""}};
inline constexpr Figure p_eff{"p_eff", "", "bits",
    "the effective input significand bits the kernel kept (at least the bound)", {"p_eff (", ""}};
inline constexpr Figure p_eff_of_v{"p_eff of V", "", "bits",
    "the effective significand bits the kernel kept of V (at least the bound)", {"p_eff of V", ""}};

// Counts: the value comes first ("3 misrounded stores").
inline constexpr Figure nonfinite_outputs{"non-finite outputs", "non-finite output", "",
    "outputs inf or NaN where the exact result y* is finite", {"outputs inf or NaN where y* is finite", ""}};
inline constexpr Figure distinct_hashes{"distinct output hashes", "distinct output hash", "",
    "distinct hashes of the output's bits over the repeated runs", {"", ""}};
inline constexpr Figure wrong_class_elements{"wrong-class elements", "wrong-class element", "",
    "elements of the wrong IEEE class (in a copy: with other bits)", {"elements of the wrong IEEE class", ""}};
inline constexpr Figure stale_outputs{"stale outputs", "stale output", "",
    "outputs that repeat the previous seed's whole output", {"stale outputs (", ""}};
inline constexpr Figure subnormal_mismatches{"subnormal mismatches", "subnormal mismatch", "",
    "distinguishing elements not handled as the subnormals claim says",
    {"distinguishing elements not as claimed", ""}};
inline constexpr Figure differing_elements{"differing elements", "differing element", "",
    "elements of the test row that differ between the batches it was computed in (most in one comparison)",
    {"differing elements of the test row", ""}};
inline constexpr Figure misrounded_stores{"misrounded stores", "misrounded store", "",
    "stores differing from RN_out, the correctly rounded output", {"stores differing from RN_out", ""}};
inline constexpr Figure integrity_breaches{"integrity breaches", "integrity breach", "",
    "breaches of the integrity protocol around the adapter's calls", {"", ""}};
inline constexpr Figure policy_departures{"policy departures", "policy departure", "",
    "calls departing from the oob_policy claim or the memory domain", {"calls departing from the oob_policy", ""}};
inline constexpr Figure unmatched_elements{"unmatched elements", "unmatched element", "",
    "elements equal to no evaluation the fp_contract claim allows",
    {"elements equal to no allowed evaluation", "elements matching no allowed evaluation"}};
inline constexpr Figure miscopied_elements{"miscopied elements", "miscopied element", "",
    "elements not copied bit for bit", {"elements not copied bit for bit", ""}};
}  // namespace figures

// Every figure above.
std::span<const Figure* const> all_figures();

// The figure a recorded name stands for (its name, or the start of an
// earlier name); nullptr for a name none knows.
const Figure* find_figure(std::string_view recorded);

// The one name of a recorded figure; a name none knows without its
// explanation in parentheses.
std::string figure_shown_name(std::string_view recorded);

// The figure with its value: "max ulp error 0.5", "p_eff 11 bits",
// "3 misrounded stores", "1 misrounded store". `value_text` is `value` as
// the caller writes numbers.
std::string figure_with_value(std::string_view recorded, double value, const std::string& value_text);

// What the figure measures, in words; a name none knows stands for itself.
std::string figure_meaning(std::string_view recorded);

// The figure against its bound and what it measures, as kcs run and the
// reports state it: "3 misrounded stores (bound 0): stores differing ...".
std::string figure_statement(std::string_view recorded, double value, const std::string& value_text,
                             const std::string& bound_text);

}  // namespace kcs::harness
