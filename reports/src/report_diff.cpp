#include "kcs/reports/report_diff.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "kcs/harness/figures.hpp"
#include "kcs/harness/verdict.hpp"

#include "render_common.hpp"

namespace kcs::reports {

namespace {

using render::member;
using render::number;
using render::text;

// The harness's verdict of that name; nullopt for none or an unknown name.
std::optional<harness::Verdict> verdict_named(const std::string& name) {
    using harness::Verdict;
    for (const Verdict v : {Verdict::pass, Verdict::fail, Verdict::unsupported, Verdict::not_applicable,
                            Verdict::crash, Verdict::timeout, Verdict::error, Verdict::inconclusive})
        if (harness::to_string(v) == name) return v;
    return std::nullopt;
}

// Worse after than before, in SPEC.md section 5's order; a verdict lost is
// worse too. A move into or out of NOT_APPLICABLE follows the plan (the
// catalog, the claims), not the kernel: a change, never a regression.
bool regressed(const std::string& before, const std::string& after) {
    if (before == after) return false;
    const auto b = verdict_named(before), a = verdict_named(after);
    if (!a) return b.has_value();
    if (!b) return false;
    if (*a == harness::Verdict::not_applicable || *b == harness::Verdict::not_applicable) return false;
    return harness::worst_of(*b, *a) == *a;
}

std::string verdict_of(const Json& instance) {
    const Json& v = member(instance, "verdict");
    return v.is_string() ? v.get<std::string>() : "none";
}

const Json& predicate_of(const Json& statement, const char* which) {
    const Json& predicate = member(statement, "predicate");
    if (!predicate.is_object() || !member(predicate, "instances").is_array())
        throw DiffError(std::string(which) + " is not a KCS report: no predicate with instances");
    return predicate;
}


// Every leaf of `value` under `prefix`, as text; arrays are one leaf.
void flatten(const Json& value, const std::string& prefix, std::map<std::string, std::string>& out) {
    if (value.is_object()) {
        for (const auto& [key, item] : value.items()) flatten(item, prefix + "." + key, out);
    } else if (value.is_string()) {
        out[prefix] = value.get<std::string>();
    } else if (!value.is_null()) {
        out[prefix] = value.dump();
    }
}

// What the runs saw, as fields: not the times or paths of this run
// (started, invocation, the claims file's place), which always differ.
std::map<std::string, std::string> environment_of(const Json& p) {
    std::map<std::string, std::string> fields;
    flatten(member(p, "adapter"), "adapter", fields);
    flatten(member(member(p, "claims"), "digest"), "claims.digest", fields);
    flatten(member(member(p, "claims"), "declared"), "claims.declared", fields);
    flatten(member(p, "spec"), "spec", fields);
    fields.erase("spec.catalog");  // where the catalog was read from
    flatten(member(member(p, "profile"), "id"), "profile", fields);
    flatten(member(member(p, "depth"), "id"), "depth", fields);
    flatten(member(p, "seeds"), "seeds", fields);
    flatten(member(p, "kcs"), "kcs", fields);
    flatten(member(p, "environment"), "environment", fields);
    return fields;
}

struct Figure {
    std::string name;
    double value = 0, bound = 0, spread = 0;
};

// The instance's worst case's figure, and the spread of its cases' figures.
std::optional<Figure> figure_of(const Json& instance) {
    const Json& cases = member(instance, "cases");
    const Json& worst = member(instance, "worst_case");
    if (!cases.is_array() || !worst.is_number_unsigned() || worst.get<std::size_t>() >= cases.size())
        return std::nullopt;
    const Json& evidence = member(cases[worst.get<std::size_t>()], "evidence");
    const auto value = number(member(evidence, "figure"));
    if (!value) return std::nullopt;
    Figure figure{text(evidence, "figure_name"), *value, number(member(evidence, "bound")).value_or(0), 0};
    double low = *value, high = *value;
    for (const Json& c : cases) {
        const Json& e = member(c, "evidence");
        if (text(e, "figure_name") != figure.name) continue;
        if (const auto v = number(member(e, "figure")); v && std::isfinite(*v)) {
            low = std::min(low, *v);
            high = std::max(high, *v);
        }
    }
    figure.spread = std::isfinite(high - low) ? high - low : 0;
    return figure;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
        lines.push_back(text.substr(start, end - start));
    lines.push_back(text.substr(start));
    return lines;
}

// A field of several lines (info()'s notes) changes by its lines: those
// only before and those only after, each side's joined with " / ".
FieldChange changed_field(const std::string& field, const std::string& before, const std::string& after) {
    if (before.find('\n') == std::string::npos && after.find('\n') == std::string::npos)
        return {field, before, after};
    const std::vector<std::string> old_lines = lines_of(before), new_lines = lines_of(after);
    const auto only = [](const std::vector<std::string>& these, const std::vector<std::string>& others) {
        std::string joined;
        for (const std::string& line : these)
            if (std::find(others.begin(), others.end(), line) == others.end())
                joined.append(joined.empty() ? "" : " / ").append(line);
        return joined;
    };
    return {field + " (the lines that differ)", only(old_lines, new_lines), only(new_lines, old_lines)};
}

bool moved(const Figure& before, const Figure& after) {
    if (before.name != after.name) return false;
    if (std::isnan(before.value) || std::isnan(after.value)) return std::isnan(before.value) != std::isnan(after.value);
    if (before.value == after.value) return false;
    if (!std::isfinite(before.value) || !std::isfinite(after.value)) return true;
    return std::fabs(after.value - before.value) > std::max(before.spread, after.spread);
}

std::string worst_message(const Json& instance) {
    const Json& worst = member(instance, "worst_case");
    const Json& cases = member(instance, "cases");
    if (!worst.is_number_unsigned() || !cases.is_array() || worst.get<std::size_t>() >= cases.size()) return "";
    return text(cases[worst.get<std::size_t>()], "message");
}

}  // namespace

bool ReportDiff::regressed() const {
    return std::any_of(verdicts.begin(), verdicts.end(), [](const VerdictChange& c) { return c.regressed; });
}

ReportDiff diff_reports(const Json& before_statement, const Json& after_statement) {
    const Json& before = predicate_of(before_statement, "the first report");
    const Json& after = predicate_of(after_statement, "the second report");
    ReportDiff diff;
    diff.adapter = render::adapter_name(after);
    if (render::adapter_name(before) != diff.adapter)
        throw DiffError("the reports are of different adapters (" + render::adapter_name(before) + " and " + diff.adapter +
                        "): kcs diff compares two runs of one adapter; kcs table sets adapters side by side");
    diff.same_catalog = text(member(before, "spec"), "digest") == text(member(after, "spec"), "digest");

    const auto before_fields = environment_of(before), after_fields = environment_of(after);
    std::set<std::string> fields;
    for (const auto& [key, value] : before_fields) fields.insert(key);
    for (const auto& [key, value] : after_fields) fields.insert(key);
    for (const std::string& field : fields) {
        const auto b = before_fields.find(field), a = after_fields.find(field);
        const std::string old_value = b == before_fields.end() ? "" : b->second;
        const std::string new_value = a == after_fields.end() ? "" : a->second;
        if (old_value != new_value) diff.environment.push_back(changed_field(field, old_value, new_value));
    }

    std::map<std::string, const Json*> old_instances;
    for (const Json& instance : member(before, "instances")) old_instances[text(instance, "id")] = &instance;
    std::set<std::string> seen;
    for (const Json& instance : member(after, "instances")) {
        const std::string id = text(instance, "id");
        seen.insert(id);
        const auto found = old_instances.find(id);
        if (found == old_instances.end()) {
            diff.added.push_back(id);
            continue;
        }
        ++diff.compared;
        const std::string old_verdict = verdict_of(*found->second), new_verdict = verdict_of(instance);
        if (old_verdict != new_verdict) {
            diff.verdicts.push_back(
                {id, old_verdict, new_verdict, regressed(old_verdict, new_verdict), worst_message(instance)});
            continue;
        }
        const auto old_figure = figure_of(*found->second), new_figure = figure_of(instance);
        if (old_figure && new_figure && moved(*old_figure, *new_figure))
            diff.figures.push_back({id, new_figure->name, old_figure->value, new_figure->value, new_figure->bound,
                                    std::max(old_figure->spread, new_figure->spread)});
    }
    for (const auto& [id, instance] : old_instances)
        if (!seen.count(id)) diff.removed.push_back(id);
    // Regressions first, then by instance.
    std::stable_sort(diff.verdicts.begin(), diff.verdicts.end(),
                     [](const VerdictChange& x, const VerdictChange& y) { return x.regressed > y.regressed; });
    return diff;
}

std::string diff_markdown(const ReportDiff& diff, std::string_view before_name, std::string_view after_name) {
    using render::escape_markdown;
    using render::markdown_code;
    using render::number_text;
    std::size_t regressions = 0;
    for (const auto& c : diff.verdicts) regressions += c.regressed;
    std::string md = "# kcs diff: " + escape_markdown(diff.adapter) + "\n\n";
    md += "- before: " + markdown_code(before_name) + "\n- after: " + markdown_code(after_name) + "\n";
    md += "- " + std::to_string(diff.compared) + " instances in both, " + std::to_string(diff.added.size()) +
          " only after, " + std::to_string(diff.removed.size()) + " only before\n";
    if (!diff.same_catalog) md += "- the catalogs differ (spec digest): instances may not measure the same\n";
    md += regressions ? "\n**REGRESSED: " + std::to_string(regressions) + " verdict(s) got worse.**\n"
                      : "\nNo verdict got worse.\n";

    md += "\n## Verdicts that changed (" + std::to_string(diff.verdicts.size()) + ")\n\n";
    if (!diff.verdicts.empty()) {
        md += "| instance | before | after | | message after |\n| --- | --- | --- | --- | --- |\n";
        for (const auto& c : diff.verdicts)
            md += "| " + markdown_code(c.instance_id) + " | " + c.before + " | " + c.after + " | " +
                  (c.regressed ? "**regressed**" : "") + " | " + escape_markdown(c.message) + " |\n";
    }
    md += "\n## Figures that moved beyond their spread (" + std::to_string(diff.figures.size()) + ")\n\n";
    if (!diff.figures.empty()) {
        md += "Same verdict; the worst case's figure moved by more than either report's spread over its seeds.\n\n";
        md += "| instance | figure | before | after | bound | spread |\n| --- | --- | --- | --- | --- | --- |\n";
        for (const auto& f : diff.figures)
            md += "| " + markdown_code(f.instance_id) + " | " + escape_markdown(harness::figure_shown_name(f.figure_name)) + " | " +
                  number_text(f.before) + " | " + number_text(f.after) + " | " + number_text(f.bound) + " | " +
                  number_text(f.spread) + " |\n";
    }
    const auto list = [&](const char* title, const std::vector<std::string>& ids) {
        md += "\n## " + std::string(title) + " (" + std::to_string(ids.size()) + ")\n\n";
        for (const auto& id : ids) md += "- " + markdown_code(id) + "\n";
    };
    list("Instances only after", diff.added);
    list("Instances only before", diff.removed);
    md += "\n## Environment differences (" + std::to_string(diff.environment.size()) + ")\n\n";
    if (!diff.environment.empty()) {
        md += "| field | before | after |\n| --- | --- | --- |\n";
        for (const auto& f : diff.environment)
            md += "| " + markdown_code(f.field) + " | " + escape_markdown(f.before) + " | " + escape_markdown(f.after) +
                  " |\n";
    }
    return md;
}

Json diff_json(const ReportDiff& diff, std::string_view before_name, std::string_view after_name) {
    const auto figure = [](double value) { return std::isfinite(value) ? Json(value) : Json(render::number_text(value)); };
    Json out{{"before", before_name}, {"after", after_name},   {"adapter", diff.adapter},
             {"regressed", diff.regressed()}, {"compared", diff.compared}, {"same_catalog", diff.same_catalog},
             {"verdicts", Json::array()}, {"figures", Json::array()}, {"added", diff.added},
             {"removed", diff.removed},      {"environment", Json::array()}};
    for (const auto& c : diff.verdicts)
        out["verdicts"].push_back({{"instance", c.instance_id}, {"before", c.before}, {"after", c.after},
                                   {"regressed", c.regressed}, {"message", c.message}});
    for (const auto& f : diff.figures)
        out["figures"].push_back({{"instance", f.instance_id}, {"figure_name", f.figure_name},
                                  {"before", figure(f.before)}, {"after", figure(f.after)}, {"bound", figure(f.bound)},
                                  {"spread", figure(f.spread)}});
    for (const auto& f : diff.environment)
        out["environment"].push_back({{"field", f.field}, {"before", f.before}, {"after", f.after}});
    return out;
}

}  // namespace kcs::reports
