#include "svg_charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "render_common.hpp"

namespace kcs::reports::render {

namespace {

// Okabe-Ito colours, which stay apart for colour-blind readers; after
// them the lines repeat with dashes.
const std::vector<std::string> kPalette = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"};

std::string px(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", v);
    return buffer;
}

std::string tick_text(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
    if (!(raw > 0)) return 1;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double f : {1.0, 2.0, 5.0, 10.0})
        if (f * magnitude >= raw) return f * magnitude;
    return 10 * magnitude;
}

// A y axis: maps values to pixels and says where its ticks go.
struct YAxis {
    bool log = false;
    double lo = 0, hi = 1;
    double top = 0, bottom = 0;  // pixels

    double to_px(double v) const {
        double f;
        if (log)
            f = v > 0 ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : 0;
        else
            f = (v - lo) / (hi - lo);
        f = std::clamp(f, 0.0, 1.0);
        return bottom - f * (bottom - top);
    }

    std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            for (double d = std::log10(lo); d <= std::log10(hi) + 1e-9; d += 1) out.push_back(std::pow(10.0, d));
        } else {
            const double step = nice_step((hi - lo) / 5);
            for (double v = lo; v <= hi + step * 1e-9; v += step) out.push_back(v);
        }
        return out;
    }
};

// The axis over the finite values; logarithmic when allowed and the
// positive values span more than two decades.
YAxis make_y_axis(const std::vector<double>& values, bool allow_log, double top, double bottom) {
    YAxis axis;
    axis.top = top;
    axis.bottom = bottom;
    double max_v = 0, min_positive = 0, min_v = 0;
    bool any_positive = false;
    for (const double v : values) {
        if (!std::isfinite(v)) continue;
        max_v = std::max(max_v, v);
        min_v = std::min(min_v, v);
        if (v > 0) {
            min_positive = any_positive ? std::min(min_positive, v) : v;
            any_positive = true;
        }
    }
    if (allow_log && any_positive && min_v >= 0 && max_v / min_positive > 100) {
        axis.log = true;
        axis.lo = std::pow(10.0, std::floor(std::log10(min_positive)));
        if (min_positive < axis.lo * 1.5) axis.lo /= 10;  // keep the lowest mark off the axis line
        axis.hi = std::pow(10.0, std::ceil(std::log10(max_v)));
        if (axis.hi <= axis.lo) axis.hi = axis.lo * 10;
        return axis;
    }
    axis.lo = min_v < 0 ? -nice_step(-min_v) : 0;
    const double step = nice_step((max_v - axis.lo) / 5);
    axis.hi = max_v > axis.lo ? std::ceil(max_v / step) * step : axis.lo + 1;
    if (axis.hi <= max_v * 1.0001 && max_v > axis.lo) axis.hi += step;  // room above the tallest mark
    return axis;
}

std::string svg_open(const std::string& kind, double width, double height, const std::string& title) {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart " + kind + "\" role=\"img\" width=\"" + px(width) +
           "\" height=\"" + px(height) + "\" viewBox=\"0 0 " + px(width) + " " + px(height) + "\" aria-label=\"" +
           escape_html(title) + "\" font-family=\"sans-serif\" font-size=\"11\">\n<title>" + escape_html(title) +
           "</title>\n<rect x=\"0\" y=\"0\" width=\"" + px(width) + "\" height=\"" + px(height) +
           "\" fill=\"#ffffff\"/>\n<text x=\"" + px(width / 2) +
           "\" y=\"16\" text-anchor=\"middle\" font-size=\"13\" font-weight=\"bold\">" + escape_html(title) +
           "</text>\n";
}

std::string text_at(double x, double y, const std::string& anchor, const std::string& content,
                    const std::string& extra = "") {
    return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + anchor + "\"" + extra + ">" +
           escape_html(content) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const std::string& attributes) {
    return "<line x1=\"" + px(x1) + "\" y1=\"" + px(y1) + "\" x2=\"" + px(x2) + "\" y2=\"" + px(y2) + "\" " +
           attributes + "/>\n";
}

// Grid lines and tick labels of the y axis, the axis title turned upright.
std::string y_axis_svg(const YAxis& axis, double left, double right, const std::string& label) {
    std::string out;
    for (const double t : axis.ticks()) {
        const double y = axis.to_px(t);
        out += line(left, y, right, y, "stroke=\"#e0e0e0\"");
        out += text_at(left - 6, y + 4, "end", tick_text(t));
    }
    out += line(left, axis.top, left, axis.bottom, "stroke=\"#444444\"");
    out += line(left, axis.bottom, right, axis.bottom, "stroke=\"#444444\"");
    const double mid = (axis.top + axis.bottom) / 2;
    out += text_at(14, mid, "middle", label + (axis.log ? " (log scale)" : ""),
                   " transform=\"rotate(-90 14 " + px(mid) + ")\"");
    return out;
}

std::string reference_svg(const YAxis& axis, double left, double right, double value, const std::string& label) {
    const double y = axis.to_px(value);
    return line(left, y, right, y,
                "class=\"reference\" stroke=\"#b00020\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"") +
           text_at(right - 4, y - 4, "end", label + " " + tick_text(value), " fill=\"#b00020\"");
}

// Wide enough for the bold 13px title (about 7.5px a character) and a margin.
double title_width(const std::string& title) { return 7.5 * static_cast<double>(title.size()) + 40; }

std::string non_finite_label(double v) { return std::isnan(v) ? "NaN" : (v > 0 ? "inf" : "-inf"); }

// At most `limit` bytes, cut before a UTF-8 continuation byte, "…" when cut.
std::string shortened(const std::string& label, std::size_t limit) {
    if (label.size() <= limit) return label;
    std::size_t end = limit;
    while (end > 0 && (static_cast<unsigned char>(label[end]) & 0xC0) == 0x80) --end;
    return label.substr(0, end) + "…";
}

}  // namespace

std::string line_chart_svg(const LineChart& chart) {
    std::vector<double> xs, ys;
    for (const auto& s : chart.series)
        for (const auto& p : s.points) {
            xs.push_back(p.x);
            ys.push_back(p.y);
        }
    if (xs.empty()) return "";
    if (chart.reference) ys.push_back(*chart.reference);

    const bool legend = chart.series.size() > 1 || !chart.series.front().name.empty();
    const double width = std::max(legend ? 700.0 : 560.0, title_width(chart.title)), height = 320;
    const double left = 70, right = width - (legend ? 190 : 20), top = 34, bottom = height - 48;
    const YAxis y_axis = make_y_axis(ys, true, top, bottom);

    const bool log_x = std::all_of(xs.begin(), xs.end(), [](double x) { return x > 0; });
    auto x_value = [&](double x) { return log_x ? std::log2(x) : x; };
    double x_lo = x_value(*std::min_element(xs.begin(), xs.end()));
    double x_hi = x_value(*std::max_element(xs.begin(), xs.end()));
    const double pad = x_hi > x_lo ? (x_hi - x_lo) * 0.06 : 1;
    x_lo -= pad;
    x_hi += pad;
    auto x_px = [&](double x) { return left + (x_value(x) - x_lo) / (x_hi - x_lo) * (right - left); };

    std::string out = svg_open("line-chart", width, height, chart.title);
    out += y_axis_svg(y_axis, left, right, chart.y_label);
    // A tick per distinct x; labels at least 40 px apart, so they never overlap.
    const std::set<double> distinct_x(xs.begin(), xs.end());
    double labelled_at = -1e9;
    for (const double x : distinct_x) {
        out += line(x_px(x), bottom, x_px(x), bottom + 4, "stroke=\"#444444\"");
        if (x_px(x) - labelled_at < 40) continue;
        out += text_at(x_px(x), bottom + 16, "middle", tick_text(x));
        labelled_at = x_px(x);
    }
    out += text_at((left + right) / 2, height - 10, "middle", chart.x_label + (log_x ? " (log scale)" : ""));
    if (chart.reference) out += reference_svg(y_axis, left, right, *chart.reference, chart.reference_label);

    bool zeros_on_log = false;
    for (std::size_t i = 0; i < chart.series.size(); ++i) {
        const auto& s = chart.series[i];
        const std::string colour = kPalette[i % kPalette.size()];
        const std::string dash = i >= kPalette.size() ? " stroke-dasharray=\"4 3\"" : "";
        std::vector<ChartPoint> points = s.points;
        std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.x < b.x; });
        out += "<g class=\"series\">\n";
        // A line through runs of finite points; a non-finite one breaks it.
        std::string path;
        bool pen_down = false;
        for (const auto& p : points) {
            if (!std::isfinite(p.y)) {
                pen_down = false;
                continue;
            }
            path += (pen_down ? " L" : " M") + px(x_px(p.x)) + " " + px(y_axis.to_px(p.y));
            pen_down = true;
        }
        if (!path.empty())
            out +=
                "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"1.8\"" + dash + "/>\n";
        for (const auto& p : points) {
            const std::string tip = "<title>" +
                                    escape_html(s.name + (s.name.empty() ? "" : ": ") + "x " + tick_text(p.x) + ", y " +
                                                number_text(p.y)) +
                                    "</title>";
            if (!std::isfinite(p.y)) {
                const double x = x_px(p.x);
                out += "<path class=\"point off-scale\" d=\"M" + px(x) + " " + px(top - 2) + " l-5 9 h10 z\" fill=\"" +
                       colour + "\">" + tip + "</path>\n";
                out += text_at(x + 7, top + 8, "start", non_finite_label(p.y), " fill=\"" + colour + "\"");
                continue;
            }
            const bool hollow = y_axis.log && p.y <= 0;
            zeros_on_log = zeros_on_log || hollow;
            out += "<circle class=\"point\" cx=\"" + px(x_px(p.x)) + "\" cy=\"" + px(y_axis.to_px(p.y)) +
                   "\" r=\"3.2\" fill=\"" + (hollow ? std::string("#ffffff") : colour) + "\" stroke=\"" + colour +
                   "\">" + tip + "</circle>\n";
        }
        out += "</g>\n";
        if (legend) {
            const double ly = top + 6 + 16 * static_cast<double>(i);
            out += line(right + 14, ly, right + 34, ly, "stroke=\"" + colour + "\" stroke-width=\"2\"" + dash);
            out += text_at(right + 40, ly + 4, "start", s.name);
        }
    }
    if (zeros_on_log)
        out += text_at(left + 4, bottom - 6, "start", "hollow: 0 (drawn at the axis)", " fill=\"#666666\"");
    return out + "</svg>\n";
}

std::string bar_chart_svg(const BarChart& chart) {
    // A picture must be able to show a difference: one bar, or bars all
    // alike (with alike bounds), cannot.
    const auto alike = [&](const ChartBar& b) {
        const ChartBar& first = chart.bars.front();
        const auto same = [](double a, double c) { return a == c || (std::isnan(a) && std::isnan(c)); };
        return same(b.value, first.value) && b.limit.has_value() == first.limit.has_value() &&
               (!b.limit || same(*b.limit, *first.limit));
    };
    if (chart.bars.size() < 2 || std::all_of(chart.bars.begin(), chart.bars.end(), alike)) return "";
    std::vector<double> values;
    std::size_t longest_label = 0;
    for (const auto& b : chart.bars) {
        values.push_back(b.value);
        if (b.limit) values.push_back(*b.limit);
        longest_label = std::max(longest_label, b.label.size());
    }
    if (chart.reference) values.push_back(*chart.reference);

    const bool slanted = longest_label > 8 || chart.bars.size() > 8;
    const double slot = 34;
    // Slanted labels reach left of their bar: the first one must not leave the picture.
    const double label_reach = slanted ? 4.6 * static_cast<double>(std::min<std::size_t>(longest_label, 30)) : 0;
    const double left = std::max(70.0, label_reach - slot / 2), top = 34;
    const double width =
        std::max({480.0, left + 24 + slot * static_cast<double>(chart.bars.size()), title_width(chart.title)});
    const double bottom_margin =
        slanted ? 40 + 5.2 * static_cast<double>(std::min<std::size_t>(longest_label, 30)) : 48;
    const double height = 260 + bottom_margin, bottom = height - bottom_margin, right = width - 24;
    // Logarithmic when the values span more than two decades: one huge bar
    // must not flatten the rest.
    const YAxis y_axis = make_y_axis(values, true, top, bottom);

    std::string out = svg_open("bar-chart", width, height, chart.title);
    out += y_axis_svg(y_axis, left, right, chart.y_label);
    out += text_at((left + right) / 2, height - 8, "middle", chart.x_label);
    const double step = (right - left) / static_cast<double>(chart.bars.size());
    bool zeros_on_log = false;
    for (std::size_t i = 0; i < chart.bars.size(); ++i) {
        const auto& b = chart.bars[i];
        const double centre = left + step * (static_cast<double>(i) + 0.5);
        const double bar_width = std::min(step * 0.7, 48.0);
        const bool finite = std::isfinite(b.value);
        const double y = finite ? y_axis.to_px(b.value) : top;
        const std::string tip = b.tooltip.empty() ? b.label + ": " + number_text(b.value) : b.tooltip;
        if (y_axis.log && finite && b.value <= 0) {
            zeros_on_log = true;
            out += "<circle class=\"bar zero\" cx=\"" + px(centre) + "\" cy=\"" + px(bottom) +
                   "\" r=\"3.2\" fill=\"#ffffff\" stroke=\"#0072b2\"><title>" + escape_html(tip) + "</title></circle>\n";
        } else {
            out += "<rect class=\"bar" + std::string(finite ? "" : " off-scale") + "\" x=\"" +
                   px(centre - bar_width / 2) + "\" y=\"" + px(y) + "\" width=\"" + px(bar_width) + "\" height=\"" +
                   px(std::max(bottom - y, 0.0)) + "\" fill=\"" + (finite ? "#0072b2" : "#d55e00") + "\"><title>" +
                   escape_html(tip) + "</title></rect>\n";
        }
        // The value above its bar where it fits the bar's slot (about 6 px a
        // character); else its tooltip carries it.
        const std::string value_text = finite ? number_text(b.value) : non_finite_label(b.value);
        if (6.0 * static_cast<double>(value_text.size()) <= step) out += text_at(centre, y - 3, "middle", value_text);
        if (b.limit && std::isfinite(*b.limit)) {
            const double ly = y_axis.to_px(*b.limit);
            out += line(centre - bar_width / 2 - 4, ly, centre + bar_width / 2 + 4, ly,
                        "class=\"limit\" stroke=\"#b00020\" stroke-width=\"2.5\"");
        }
        const std::string label = shortened(b.label, 30);
        if (slanted)
            out += text_at(centre, bottom + 12, "end", label,
                           " transform=\"rotate(-40 " + px(centre) + " " + px(bottom + 12) + ")\"");
        else
            out += text_at(centre, bottom + 16, "middle", label);
    }
    if (chart.reference) out += reference_svg(y_axis, left, right, *chart.reference, chart.reference_label);
    const bool any_limit = std::any_of(chart.bars.begin(), chart.bars.end(), [](const auto& b) { return b.limit; });
    if (any_limit) out += text_at(right, top - 4, "end", "red tick: that bar's bound", " fill=\"#b00020\"");
    if (zeros_on_log)
        out += text_at(left + 4, bottom - 6, "start", "hollow: 0 (drawn at the axis)", " fill=\"#666666\"");
    return out + "</svg>\n";
}

}  // namespace kcs::reports::render
