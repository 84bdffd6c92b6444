#include "kcs/harness/figures.hpp"

#include <array>

namespace kcs::harness {

namespace {

constexpr std::array kFigures{
    &figures::max_ulp_error,      &figures::order_diameter,     &figures::order_error,
    &figures::dot_error,          &figures::stability_error,    &figures::row_sum_error,
    &figures::error_mean,         &figures::error_variance,     &figures::p_eff,
    &figures::p_eff_of_v,         &figures::nonfinite_outputs,  &figures::distinct_hashes,
    &figures::wrong_class_elements, &figures::stale_outputs,    &figures::subnormal_mismatches,
    &figures::differing_elements, &figures::misrounded_stores,  &figures::integrity_breaches,
    &figures::policy_departures,  &figures::unmatched_elements, &figures::miscopied_elements,
};

}  // namespace

std::span<const Figure* const> all_figures() { return kFigures; }

const Figure* find_figure(std::string_view recorded) {
    if (recorded.empty()) return nullptr;
    for (const Figure* f : kFigures)
        if (recorded == f->name) return f;
    for (const Figure* f : kFigures)
        for (std::string_view earlier : f->earlier)
            if (!earlier.empty() && recorded.starts_with(earlier)) return f;
    return nullptr;
}

std::string figure_shown_name(std::string_view recorded) {
    if (const Figure* f = find_figure(recorded)) return f->name;
    return std::string(recorded.substr(0, recorded.find(" (")));
}

std::string figure_with_value(std::string_view recorded, double value, const std::string& value_text) {
    const Figure* f = find_figure(recorded);
    if (f && *f->one) return value_text + " " + (value == 1 ? f->one : f->name);
    std::string out = f ? std::string(f->name) : figure_shown_name(recorded);
    if (!out.empty()) out += " ";
    out += value_text;
    if (f && *f->unit) {
        out += " ";
        out += f->unit;
    }
    return out;
}

std::string figure_meaning(std::string_view recorded) {
    if (const Figure* f = find_figure(recorded)) return f->meaning;
    return std::string(recorded);
}

std::string figure_statement(std::string_view recorded, double value, const std::string& value_text,
                             const std::string& bound_text) {
    std::string out = figure_with_value(recorded, value, value_text);
    out += " (bound ";
    out += bound_text;
    out += "): ";
    out += figure_meaning(recorded);
    return out;
}

}  // namespace kcs::harness
