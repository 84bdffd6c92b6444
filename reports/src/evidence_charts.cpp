#include "evidence_charts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "kcs/harness/figures.hpp"
#include "svg_charts.hpp"

namespace kcs::reports::render {

namespace {

constexpr const char* kAccumulator = "C-PRC-01";
constexpr const char* kApproximation = "C-CMP-01";
constexpr const char* kDeterminism = "C-ORD-02";

const Json& details_of(const Json& case_json) { return member(member(case_json, "evidence"), "details"); }

// The worse of two figures: NaN beats everything, then the larger.
double worse(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<double>::quiet_NaN();
    return std::max(a, b);
}

std::string figure_name_of(const Json& instance, const std::string& fallback) {
    const Json* decider = deciding_case(instance);
    const std::string name = decider ? text(member(*decider, "evidence"), "figure_name") : "";
    return name.empty() ? fallback : harness::figure_shown_name(name);
}

std::optional<double> bound_of(const Json& instance) {
    const Json* decider = deciding_case(instance);
    if (!decider) return std::nullopt;
    const auto bound = number(member(member(*decider, "evidence"), "bound"));
    if (bound && std::isfinite(*bound)) return bound;
    return std::nullopt;
}

// ---- C-PRC-01: error over bound against K -----------------------------------------

// (K, max error / bound) of each sweep entry that recorded both.
std::vector<ChartPoint> sweep_points(const Json& details) {
    std::vector<ChartPoint> points;
    for (const auto& entry : member(details, "sweep")) {
        const auto k = number(member(entry, "K"));
        const auto ratio = number(member(entry, "max_error_over_bound"));
        if (k && ratio) points.push_back({*k, *ratio});
    }
    return points;
}

std::string accumulator_chart(const Json& instance) {
    LineChart chart;
    chart.title = short_instance_id(instance) + ": error against K, per seed";
    chart.x_label = "K (reduction length)";
    chart.y_label = figure_name_of(instance, "max error / bound");
    for (const auto& c : member(instance, "cases")) {
        ChartSeries series{"seed " + text(c, "seed"), sweep_points(details_of(c))};
        if (!series.points.empty()) chart.series.push_back(std::move(series));
    }
    chart.reference = bound_of(instance);
    chart.reference_label = "bound";
    return line_chart_svg(chart);
}

// Per K, the worst over the instance's seeds.
std::vector<ChartPoint> worst_over_seeds(const Json& instance) {
    std::map<double, double> by_k;
    for (const auto& c : member(instance, "cases"))
        for (const auto& p : sweep_points(details_of(c))) {
            const auto [it, inserted] = by_k.try_emplace(p.x, p.y);
            if (!inserted) it->second = worse(it->second, p.y);
        }
    std::vector<ChartPoint> out;
    for (const auto& [k, y] : by_k) out.push_back({k, y});
    return out;
}

std::vector<std::string> accumulator_overview(const std::vector<const Json*>& instances) {
    std::map<std::string, LineChart> by_operator;
    for (const Json* instance : instances) {
        auto points = worst_over_seeds(*instance);
        if (points.empty()) continue;
        const std::string op = text(*instance, "operator");
        LineChart& chart = by_operator[op];
        if (chart.title.empty()) {
            chart.title = std::string(kAccumulator) + " " + op + ": error against K (worst over seeds)";
            chart.x_label = "K (reduction length)";
            chart.y_label = figure_name_of(*instance, "max error / bound");
            chart.reference = bound_of(*instance);
            chart.reference_label = "bound";
        }
        std::string name = short_instance_id(*instance);
        if (name.rfind(op + "/", 0) == 0) name = name.substr(op.size() + 1);
        chart.series.push_back({name, std::move(points)});
    }
    std::vector<std::string> out;
    for (const auto& [op, chart] : by_operator) out.push_back(line_chart_svg(chart));
    return out;
}

// ---- C-CMP-01: ulp error per binade and sub-domain -------------------------------

// Two pictures: the max ulp error against the binade E of x (2^E <= |x| <
// 2^(E+1)), a line per sign, so that a sweep of 250 binades stays readable;
// and the whole sub-domains (underflow, overflow, ...) as bars.
std::string approximation_chart(const Json& instance) {
    const Json* decider = deciding_case(instance);
    if (!decider) return "";
    const Json& details = details_of(*decider);
    const std::string seed = " (seed " + text(*decider, "seed") + ")";
    LineChart binades;
    binades.title = short_instance_id(instance) + ": max ulp error per binade of x" + seed;
    binades.x_label = "binade E of x (2^E <= |x| < 2^(E+1))";
    binades.y_label = "max ulp error";
    ChartSeries positive{"x > 0", {}}, negative{"x < 0", {}};
    for (const auto& binade : member(details, "core_binades")) {
        const auto error = number(member(binade, "max_ulp_error"));
        const auto e = number(member(binade, "binade"));
        if (error && e) (text(binade, "sign") == "-" ? negative : positive).points.push_back({*e, *error});
    }
    for (auto* s : {&positive, &negative})
        if (!s->points.empty()) binades.series.push_back(std::move(*s));
    binades.reference = bound_of(instance);
    binades.reference_label = "bound";

    BarChart subdomains;
    subdomains.title = short_instance_id(instance) + ": max ulp error per sub-domain" + seed;
    subdomains.x_label = "sub-domain of x";
    subdomains.y_label = "max ulp error";
    for (const auto& [name, subdomain] : member(details, "subdomains").items()) {
        const auto error = number(member(subdomain, "max_ulp_error"));
        if (error)
            subdomains.bars.push_back(
                {name, *error, std::nullopt,
                 name + ": max ulp error " + number_text(*error) + " at x = " + text(subdomain, "x")});
    }
    subdomains.reference = bound_of(instance);
    subdomains.reference_label = "bound";
    return line_chart_svg(binades) + bar_chart_svg(subdomains);
}

// ---- C-ORD-02: runs per distinct output hash -------------------------------------

std::string determinism_chart(const Json& instance) {
    const Json* decider = deciding_case(instance);
    if (!decider) return "";
    const Json& hashes = member(details_of(*decider), "hashes");
    BarChart chart;
    chart.title = short_instance_id(instance) + ": runs per distinct output hash (seed " + text(*decider, "seed") +
                  ", " + std::to_string(hashes.is_array() ? hashes.size() : 0) + " distinct)";
    chart.x_label = "output hash (first 12 hex digits of sha256)";
    chart.y_label = "runs";
    for (const auto& group : hashes) {
        const auto runs = number(member(group, "runs"));
        if (!runs) continue;
        const std::string sha = text(group, "sha256");
        chart.bars.push_back({sha.substr(0, 12), *runs, std::nullopt,
                              sha + ": " + number_text(*runs) + " runs, first in run " + text(group, "first_run") +
                                  " (" + text(group, "first_condition") + ")"});
    }
    return bar_chart_svg(chart);
}

// ---- figure against bound per instance (C-CMP-01, C-ORD-02 overviews) ------------

std::string figure_per_instance(const std::string& class_id, const std::vector<const Json*>& instances) {
    BarChart chart;
    for (const Json* instance : instances) {
        std::optional<double> figure;
        for (const auto& c : member(*instance, "cases")) {
            const auto f = number(member(member(c, "evidence"), "figure"));
            if (f) figure = figure ? worse(*figure, *f) : *f;
        }
        if (!figure) continue;
        if (chart.title.empty()) {
            chart.y_label = figure_name_of(*instance, "figure");
            chart.title = class_id + ": " + chart.y_label + " per instance (worst over seeds)";
            chart.x_label = "instance";
        }
        chart.bars.push_back({short_instance_id(*instance), *figure, bound_of(*instance),
                              text(*instance, "id") + ": " + number_text(*figure) + " (bound " +
                                  (bound_of(*instance) ? number_text(*bound_of(*instance)) : "?") + ", " +
                                  verdict_of(*instance) + ")"});
    }
    return bar_chart_svg(chart);
}

}  // namespace

bool has_pictures(const std::string& class_id) {
    return class_id == kAccumulator || class_id == kApproximation || class_id == kDeterminism;
}

std::string instance_chart(const Json& instance) {
    const std::string class_id = text(instance, "class");
    if (class_id == kAccumulator) return accumulator_chart(instance);
    if (class_id == kApproximation) return approximation_chart(instance);
    if (class_id == kDeterminism) return determinism_chart(instance);
    return "";
}

std::vector<std::string> class_charts(const Json& predicate, const std::string& class_id) {
    std::vector<const Json*> instances;
    for (const auto& instance : member(predicate, "instances"))
        if (text(instance, "class") == class_id) instances.push_back(&instance);
    std::vector<std::string> out;
    if (class_id == kAccumulator) out = accumulator_overview(instances);
    if (class_id == kApproximation || class_id == kDeterminism) out.push_back(figure_per_instance(class_id, instances));
    out.erase(std::remove(out.begin(), out.end(), std::string()), out.end());
    return out;
}

}  // namespace kcs::reports::render
