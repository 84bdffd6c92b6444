// The key figure of a table cell: how far a measured figure went towards,
// or past, its bound, and a short text for it. Internal to the table code.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kcs::reports::table_detail {

struct FigureReading {
    double ratio = 0;   // figure / bound (bound / figure for "at least" bounds); above 1 is past the bound
    double excess = 0;  // how far past (or short of) the bound, in the figure's unit: orders equal ratios
    std::string text;   // "max ulp error 1 (≤3)", "max D/B 24.2 (≤2)", "p_eff 11 bits (≥24)"
};

// `at_least`: the bound is a minimum (its model holds the figure at least
// the bound, cited_tolerance.hpp), otherwise a maximum.
FigureReading read_figure(std::string_view figure_name, double figure, double bound, bool at_least);

// "100%", "60%", "33.3%"; never "100%" for less than all, nor "0%" for more than none.
std::string percent_text(double fraction);

}  // namespace kcs::reports::table_detail
