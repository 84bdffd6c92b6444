// kcs rejudge REPORT --spec-version V: the report's verdicts as another
// catalog version would give them, from its evidence
// (reports/include/kcs/reports/rejudge_under.hpp). The report is read as
// kcs render reads it, its signature unchecked (kcs verify checks it).
#include <iostream>
#include <memory>
#include <string>

#include "catalog_location.hpp"
#include "commands.hpp"
#include "report_input.hpp"
#include "kcs/reports/rejudge_under.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

namespace {

struct RejudgeOptions {
    std::string report, target, format = "text";
};

// The catalog this kcs carries whose digest is `digest` (current or released).
std::optional<spec::Catalog> carried_with_digest(const std::string& digest) {
    for (const auto& carried : every_catalog()) {
        auto loaded = spec::load_catalog(carried.dir);
        if (loaded.ok() && spec::catalog_digest(loaded.catalog) == digest) return std::move(loaded.catalog);
    }
    return std::nullopt;
}

int run_rejudge(const RejudgeOptions& o) {
    UnverifiedReport report;
    try {
        report = read_unverified_report(o.report);
    } catch (const ReportInputError& e) {
        std::cerr << "kcs rejudge: " << e.message << "\n";
        return 2;
    }
    const spec::Json& spec_section = report.statement["predicate"]["spec"];
    if (!spec_section.is_object() || !report.statement["predicate"]["instances"].is_array()) {
        std::cerr << "kcs rejudge: " << o.report << ": not a KCS report (no predicate with spec and instances)\n";
        return 2;
    }
    const auto dir = find_catalog(o.target);
    if (dir.empty()) {
        std::cerr << "kcs rejudge: --spec-version " << o.target
                  << " is neither a catalog folder nor a version this kcs carries\n";
        return 2;
    }
    auto target = spec::load_catalog(dir);
    if (!target.ok()) {
        std::cerr << "kcs rejudge: the catalog in " << dir.string() << " does not load; run kcs spec lint on it\n";
        return 2;
    }
    const auto own = carried_with_digest(spec_section.value("digest", ""));
    const auto judged = reports::rejudge_under(report.statement, own ? &*own : nullptr, target.catalog);
    if (o.format == "json")
        std::cout << reports::rejudgement_json(judged).dump(2) << "\n";
    else
        std::cout << reports::rejudgement_text(judged)
                  << (own ? "" : "(the report's own catalog is not carried here: its evidence's cited tolerances stood in)\n");
    return 0;
}

}  // namespace

void add_rejudge_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<RejudgeOptions>();
    auto* rejudge = app.add_subcommand(
        "rejudge", "A report's verdicts as another catalog version would give them, from its evidence");
    rejudge->add_option("REPORT", o->report, "report.json or report.dsse.json")->required();
    rejudge->add_option("--spec-version", o->target, "The version to judge under (1.0.0, 1.1.0), or a catalog folder")
        ->required();
    rejudge->add_option("--format", o->format, "text (the default) or json")->check(CLI::IsMember({"text", "json"}));
    rejudge->footer(
        "For each instance: the same verdict (same protocol and bound), another verdict (its figures judged "
        "against that version's bound), or a rerun needed (other parameters, an evidence requirement, a bound "
        "applied element by element); the report's instances that version does not plan, and those it plans "
        "that the report lacks. Nothing is run. Exit 0 when judged, 2 on unreadable input.");
    rejudge->callback([&exit_code, o] { exit_code = run_rejudge(*o); });
}

}  // namespace kcs::cli
