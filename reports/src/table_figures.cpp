// Key figures of table cells: a figure by its one name (kcs/harness/figures.hpp)
// with its value and bound, and the ratio that says which figure of a class
// came closest to its bound.
#include "table_figures.hpp"

#include <cmath>
#include <limits>

#include "kcs/harness/figures.hpp"
#include "kcs/reference/number_text.hpp"

namespace kcs::reports::table_detail {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

std::string percent_text(double fraction) {
    double tenths = std::round(fraction * 1000.0) / 10.0;
    if (tenths >= 100.0 && fraction < 1.0) tenths = 99.9;
    if (tenths <= 0.0 && fraction > 0.0) tenths = 0.1;
    return ref::number_text(tenths) + "%";
}

FigureReading read_figure(std::string_view figure_name, double figure, double bound, bool at_least) {
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

    // Three digits fit a table cell; a figure just past its bound takes
    // more, so that it never prints as the bound.
    reading.text = harness::figure_with_value(figure_name, figure, ref::number_text_apart(figure, bound, 3));
    reading.text += at_least ? " (≥" : " (≤";
    reading.text += ref::number_text(bound, 3) + ")";
    return reading;
}

}  // namespace kcs::reports::table_detail
