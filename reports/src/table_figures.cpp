// Key figures of table cells: the figure names the probes write (see
// suites/<family>/*.cpp) shortened so that a cell stays one short line, and
// the ratio that says which figure of a class came closest to its bound.
#include "table_figures.hpp"

#include <cmath>
#include <limits>

#include "kcs/reference/number_text.hpp"

namespace kcs::reports::table_detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// How a figure name is shown. "{}" stands for the figure; `one` is used
// when it is exactly 1 (counts read "1 hash", "2 hashes").
struct FigureForm {
    std::string_view name_start;
    std::string_view one;
    std::string_view many;
};

constexpr FigureForm kForms[] = {
    {"max ulp error", "max {} ulp", "max {} ulp"},
    {"max D / B", "D/B {}", "D/B {}"},
    {"max |y_pi - y*| / B", "|y_pi-y*|/B {}", "|y_pi-y*|/B {}"},
    {"max |y - y*| / dot_bound", "|y-y*|/dot_bound {}", "|y-y*|/dot_bound {}"},
    {"max |y - y*| / stability_bound", "|y-y*|/stab_bound {}", "|y-y*|/stab_bound {}"},
    {"max |S - 1| / row-sum bound", "|S-1|/row-sum bound {}", "|S-1|/row-sum bound {}"},
    {"|mean e| / its limit", "|mean e|/limit {}", "|mean e|/limit {}"},
    {"variance of e / its limit", "var(e)/limit {}", "var(e)/limit {}"},
    {"outputs inf or NaN where y* is finite", "{} non-finite output", "{} non-finite outputs"},
    {"distinct output hashes", "{} hash", "{} hashes"},
    {"p_eff", "p_eff {} bit", "p_eff {} bits"},
    {"elements of the wrong IEEE class", "{} wrong IEEE class", "{} wrong IEEE class"},
    {"stale outputs", "{} stale output", "{} stale outputs"},
    {"distinguishing elements not as claimed", "{} subnormal mismatch", "{} subnormal mismatches"},
    {"differing elements of the test row", "{} differing element", "{} differing elements"},
    {"stores differing from RN_out", "{} misrounded store", "{} misrounded stores"},
    {"integrity breaches", "{} breach", "{} breaches"},
};

// A figure name no form knows: without its explanation in parentheses,
// and cut short.
std::string fallback_pattern(std::string_view name) {
    std::string shown(name.substr(0, name.find(" (")));
    constexpr std::size_t kLongest = 40;
    if (shown.size() > kLongest) shown = shown.substr(0, kLongest - 3) + "...";
    return shown.empty() ? "{}" : shown + " {}";
}

std::string filled(std::string_view pattern, const std::string& figure) {
    std::string out(pattern);
    const auto at = out.find("{}");
    if (at != std::string::npos) out.replace(at, 2, figure);
    return out;
}

}  // namespace

std::string percent_text(double fraction) {
    double tenths = std::round(fraction * 1000.0) / 10.0;
    if (tenths >= 100.0 && fraction < 1.0) tenths = 99.9;
    if (tenths <= 0.0 && fraction > 0.0) tenths = 0.1;
    return ref::number_text(tenths) + "%";
}

FigureReading read_figure(std::string_view figure_name, double figure, double bound, bool at_least) {
    const FigureForm* form = nullptr;
    for (const auto& f : kForms) {
        if (figure_name.starts_with(f.name_start)) {
            form = &f;
            break;
        }
    }
    FigureReading reading;
    if (std::isnan(figure)) {
        reading.ratio = reading.excess = kInfinity;
    } else if (at_least) {
        reading.excess = bound - figure;
        reading.ratio = figure > 0 ? std::max(0.0, bound / figure) : (bound > 0 ? kInfinity : 0.0);
    } else {
        reading.excess = figure - bound;
        // A bound of 0 (counts of wrong elements): any count is past it.
        reading.ratio = bound > 0 ? figure / bound : (figure > bound ? kInfinity : 0.0);
    }

    const std::string pattern =
        form ? std::string(figure == 1 ? form->one : form->many) : fallback_pattern(figure_name);
    reading.text =
        // Three digits fit a table cell; a figure just past its bound takes
        // more, so that it never prints as the bound.
        filled(pattern, ref::number_text_apart(figure, bound, 3)) + " (" + (at_least ? "≥" : "≤") +
        ref::number_text(bound, 3) + ")";
    return reading;
}

}  // namespace kcs::reports::table_detail
