// Building a comparison table from verified reports: one column per
// report, one row per contract class, each cell judged from the recorded
// instance verdicts (a missing verdict is never a pass) and the report's
// own class summary.
#include "kcs/reports/table.hpp"

#include <map>

#include "render_common.hpp"
#include "cited_tolerance.hpp"
#include "table_figures.hpp"

namespace kcs::reports {

namespace {

using render::text;
using table_detail::read_figure;

std::optional<double> fraction_at(const Json& object, const char* key) {
    const auto found = object.find(key);
    if (found == object.end() || !found->is_number()) return std::nullopt;
    return found->get<double>();
}

// Instance counts of one class, by the verdicts that decide its cell
// (UNSUPPORTED ones only lower coverage, so they count as applicable only).
struct ClassTally {
    std::size_t applicable = 0;
    std::size_t pass = 0, fail = 0, crash_or_timeout = 0, error = 0, missing = 0;
    std::size_t consequence = 0;  // FAILs explained by another class's FAIL, not counted in fail
    std::string cause;            // the first of those FAILs' causes
};

ClassTally tally_of(const std::vector<const Json*>& instances) {
    ClassTally t;
    for (const Json* instance : instances) {
        const Json& verdict = instance->at("verdict");
        if (!instance->at("applicable").get<bool>() || verdict == "NOT_APPLICABLE") continue;
        ++t.applicable;
        if (verdict.is_null())
            ++t.missing;
        else if (verdict == "PASS")
            ++t.pass;
        else if (verdict == "FAIL" && instance->value("consequence_of", Json()).is_object()) {
            if (t.consequence++ == 0) t.cause = text(instance->at("consequence_of"), "instance");
        } else if (verdict == "FAIL")
            ++t.fail;
        else if (verdict == "CRASH" || verdict == "TIMEOUT")
            ++t.crash_or_timeout;
        else if (verdict == "ERROR")
            ++t.error;
    }
    return t;
}

// The case of a class with the largest ratio of figure to bound. In a
// FAIL cell only failing cases compete, so the figure shown is one that
// failed rather than a passing case that came close.
std::optional<KeyFigure> key_figure(const std::vector<const Json*>& instances, bool failing_only) {
    std::optional<KeyFigure> best;
    double best_excess = 0;
    for (const Json* instance : instances) {
        for (const Json& c : instance->at("cases")) {
            const Json& verdict = c.at("verdict");
            if (verdict != "FAIL" && (failing_only || verdict != "PASS")) continue;
            const Json& evidence = c.at("evidence");
            const std::string name = text(evidence, "figure_name");
            const auto figure = render::number(evidence.at("figure"));
            const auto bound = render::number(evidence.at("bound"));
            if (name.empty() || !figure || !bound) continue;  // a verdict without a measurement
            auto reading =
                read_figure(name, *figure, *bound, detail::figure_holds_at_least(evidence, text(*instance, "class")));
            if (best &&
                !(reading.ratio > best->ratio || (reading.ratio == best->ratio && reading.excess > best_excess)))
                continue;
            best = KeyFigure{std::move(reading.text), name, text(*instance, "id"), reading.ratio};
            best_excess = reading.excess;
        }
    }
    if (!best && failing_only) return key_figure(instances, false);
    return best;
}

TableCell make_cell(const std::vector<const Json*>& instances, const std::string& class_verdict) {
    TableCell cell;
    if (instances.empty()) return cell;  // not_planned
    const ClassTally t = tally_of(instances);
    cell.applicable = t.applicable;
    if (t.applicable == 0) {
        cell.outcome = CellOutcome::not_applicable;
        return cell;
    }
    if (t.fail > 0) {
        cell.outcome = CellOutcome::fail;
        cell.counted = t.fail;
    } else if (t.crash_or_timeout > 0) {
        cell.outcome = CellOutcome::crash;
        cell.counted = t.crash_or_timeout;
    } else if (t.error > 0) {
        cell.outcome = CellOutcome::error;
        cell.counted = t.error;
    } else if (t.consequence > 0) {
        cell.outcome = CellOutcome::consequence;
        cell.counted = t.consequence;
        cell.cause = t.cause;
    } else if (t.missing > 0 || t.pass == 0 || class_verdict != "CONFORMANT") {
        // Missing verdicts, nothing executed, or what the report's summary
        // holds against the class (an unfinished run, partial support).
        cell.outcome = CellOutcome::incomplete;
        cell.counted = t.applicable - t.pass;
    } else {
        cell.outcome = CellOutcome::pass;
        cell.counted = t.pass;
    }
    cell.key = key_figure(instances, cell.outcome == CellOutcome::fail);
    return cell;
}

AdapterColumn make_column(const TableEntry& entry, const Json& predicate) {
    AdapterColumn column;
    column.source = entry.source;
    column.admission = entry.admission;
    column.signer = entry.signer;

    const Json& adapter = predicate.at("adapter");
    const Json& info = adapter.at("info");
    column.adapter = render::adapter_name(predicate);
    if (info.is_object()) {
        column.adapter_version = text(info, "adapter_version");
        column.device = text(info, "device");
        column.vendor = text(info, "vendor");
        column.driver_version = text(info, "driver_version");
    }
    for (const auto& option : adapter.at("options")) column.options.push_back(option.get<std::string>());
    column.run_date = text(predicate, "started").substr(0, 10);
    for (const auto& op : predicate.at("operators")) column.operators.push_back(op.get<std::string>());
    const Json filter = predicate.value("filter", Json::object());
    column.include = filter.value("include", std::vector<std::string>{});
    column.exclude = filter.value("exclude", std::vector<std::string>{});

    column.profile_id = text(predicate.at("profile"), "id");
    column.profile_title = text(predicate.at("profile"), "title");
    column.depth_id = text(predicate.at("depth"), "id");
    column.depth_certifiable = predicate.at("depth").at("certifiable").get<bool>();
    column.state = text(predicate, "state");

    const Json& profile = predicate.at("summary").at("profile");
    column.profile_verdict = text(profile, "verdict");
    const Json& counts = profile.at("counts");
    column.applicable = counts.at("applicable").get<std::size_t>();
    column.executed = counts.at("executed").get<std::size_t>();
    column.passed = counts.at("pass").get<std::size_t>();
    column.coverage = fraction_at(profile, "coverage");
    column.pass_rate = fraction_at(profile, "pass_rate");
    return column;
}

const Json& predicate_of(const TableEntry& entry) {
    const Json& statement = entry.statement;
    if (!statement.is_object() || statement.value("predicateType", "") != kPredicateType)
        throw TableError(entry.source + ": not a KCS conformance report (predicateType is not " +
                         std::string(kPredicateType) + ")");
    return statement.at("predicate");
}

std::string spec_text(const Json& spec) { return "spec " + text(spec, "version") + " (" + text(spec, "digest") + ")"; }

// Figures and verdicts of two catalogs mean different things: refuse.
void require_one_catalog(const std::vector<TableEntry>& entries) {
    const Json& first = predicate_of(entries.front()).at("spec");
    for (std::size_t i = 1; i < entries.size(); ++i) {
        const Json& spec = predicate_of(entries[i]).at("spec");
        if (text(spec, "version") != text(first, "version") || text(spec, "digest") != text(first, "digest"))
            throw TableError("cannot compare reports of different catalogs: " + entries.front().source + " has " +
                             spec_text(first) + ", " + entries[i].source + " has " + spec_text(spec));
    }
}

// One shard's report covers part of a plan: its column would read as a
// device that ran only that part. kcs merge makes the whole report first.
void require_whole_plans(const std::vector<TableEntry>& entries) {
    for (const auto& entry : entries) {
        const Json& predicate = predicate_of(entry);
        if (const auto shard = predicate.find("shard"); shard != predicate.end())
            throw TableError(entry.source + ": the report of one shard (" + shard->value("index", Json()).dump() +
                             " of " + shard->value("count", Json()).dump() +
                             ") of a plan; kcs merge joins the shards into the report a table can show");
    }
}

}  // namespace

std::string_view to_string(CellOutcome outcome) {
    switch (outcome) {
        case CellOutcome::fail:
            return "FAIL";
        case CellOutcome::crash:
            return "CRASH";
        case CellOutcome::error:
            return "ERROR";
        case CellOutcome::consequence:
            return "CONSEQUENCE";
        case CellOutcome::incomplete:
            return "INCOMPLETE";
        case CellOutcome::pass:
            return "PASS";
        case CellOutcome::not_applicable:
            return "N/A";
        case CellOutcome::not_planned:
            return "—";
    }
    return "?";
}

std::optional<TableFormat> parse_table_format(std::string_view name) {
    if (name == "md" || name == "markdown") return TableFormat::markdown;
    if (name == "html") return TableFormat::html;
    if (name == "csv") return TableFormat::csv;
    return std::nullopt;
}

ComparisonTable build_table(const std::vector<TableEntry>& entries) {
    if (entries.empty()) throw TableError("a table needs at least one report");
    require_one_catalog(entries);
    require_whole_plans(entries);

    ComparisonTable table;
    const Json& spec = predicate_of(entries.front()).at("spec");
    table.spec_version = text(spec, "version");
    table.spec_digest = text(spec, "digest");

    // Per column: its instances by class, and the report's class verdicts and titles.
    std::vector<std::map<std::string, std::vector<const Json*>>> instances(entries.size());
    std::vector<std::map<std::string, std::string>> class_verdicts(entries.size());
    std::map<std::string, std::string> titles;  // every class any report plans
    for (std::size_t e = 0; e < entries.size(); ++e) {
        try {
            const Json& predicate = predicate_of(entries[e]);
            table.columns.push_back(make_column(entries[e], predicate));
            for (const Json& instance : predicate.at("instances")) {
                const auto class_id = instance.at("class").get<std::string>();
                instances[e][class_id].push_back(&instance);
                titles.try_emplace(class_id);
            }
            for (const Json& c : predicate.at("summary").at("classes")) {
                const auto class_id = c.at("class").get<std::string>();
                class_verdicts[e][class_id] = text(c, "verdict");
                auto& title = titles[class_id];
                if (title.empty()) title = text(c, "title");
            }
        } catch (const Json::exception& error) {
            throw TableError(entries[e].source + ": not a KCS conformance report: " + error.what());
        }
    }

    for (const auto& [class_id, title] : titles) {
        ClassRow row{class_id, title, {}};
        for (std::size_t e = 0; e < entries.size(); ++e) {
            const auto found = instances[e].find(class_id);
            const auto verdict = class_verdicts[e].find(class_id);
            try {
                row.cells.push_back(make_cell(found == instances[e].end() ? std::vector<const Json*>{} : found->second,
                                              verdict == class_verdicts[e].end() ? "" : verdict->second));
            } catch (const Json::exception& error) {
                throw TableError(entries[e].source + ": not a KCS conformance report: " + error.what());
            }
        }
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace kcs::reports
