// Small inline SVG charts for the HTML report: no script, no external
// font or style, every label escaped. Values JSON cannot hold (NaN,
// infinities) are drawn at the top edge and labelled, never dropped; on a
// logarithmic axis zeros are drawn at the bottom edge as hollow markers.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kcs::reports::render {

struct ChartPoint {
    double x = 0;
    double y = 0;  // may be NaN or infinite
};

struct ChartSeries {
    std::string name;  // the legend entry; "" for none
    std::vector<ChartPoint> points;
};

// Lines over a base-2 logarithmic x axis (K = 64, 512, ...; linear when an
// x is not positive); y logarithmic when the values span more than two
// decades, else linear from zero.
struct LineChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<ChartSeries> series;
    std::optional<double> reference;  // a dashed horizontal line, e.g. the bound
    std::string reference_label;
};

struct ChartBar {
    std::string label;
    double value = 0;             // may be NaN or infinite
    std::optional<double> limit;  // a tick across the bar, e.g. this bar's own bound
    std::string tooltip;          // shown on hover; the label and value when empty
};

// Vertical bars over a y axis from zero, logarithmic when the values span
// more than two decades (zeros then drawn as hollow markers at the axis).
// Nothing is drawn for fewer than two bars, or bars all alike: such a
// picture cannot show a difference.
struct BarChart {
    std::string title;
    std::string x_label;
    std::string y_label;
    std::vector<ChartBar> bars;
    std::optional<double> reference;  // a dashed horizontal line across all bars
    std::string reference_label;
};

// One <svg class="chart ..."> element; "" when there is nothing to draw.
std::string line_chart_svg(const LineChart& chart);
std::string bar_chart_svg(const BarChart& chart);

}  // namespace kcs::reports::render
