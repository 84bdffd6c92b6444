// kcs diff BEFORE AFTER: what changed between two reports of one adapter
// (reports/include/kcs/reports/report_diff.hpp), as Markdown or JSON. The
// reports are read as kcs render reads them: a bare Statement or a DSSE
// envelope's payload, signatures unchecked (kcs verify checks them).
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "report_input.hpp"
#include "kcs/reports/report_diff.hpp"
#include "kcs/reports/report_file.hpp"

namespace kcs::cli {

namespace {

struct DiffOptions {
    std::string before, after;
    std::string format = "md";
    std::string out;
};

int run_diff(const DiffOptions& o) {
    std::string text;
    bool regressed = false;
    try {
        const UnverifiedReport before = read_unverified_report(o.before);
        const UnverifiedReport after = read_unverified_report(o.after);
        const reports::ReportDiff diff = reports::diff_reports(before.statement, after.statement);
        regressed = diff.regressed();
        text = o.format == "json" ? reports::diff_json(diff, o.before, o.after).dump(2) + "\n"
                                  : reports::diff_markdown(diff, o.before, o.after);
    } catch (const ReportInputError& e) {
        std::cerr << "kcs diff: " << e.message << "\n";
        return 2;
    } catch (const reports::DiffError& e) {
        std::cerr << "kcs diff: " << e.what() << "\n";
        return 2;
    }
    if (o.out.empty()) {
        std::cout << text;
        if (!std::cout.flush()) return 2;
    } else {
        try {
            reports::write_file_atomically(o.out, text);
        } catch (const std::runtime_error& e) {
            std::cerr << "kcs diff: " << e.what() << "\n";
            return 2;
        }
        std::cerr << "kcs diff: wrote " << o.out << "\n";
    }
    return regressed ? 1 : 0;
}

}  // namespace

void add_diff_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<DiffOptions>();
    auto* diff = app.add_subcommand("diff", "What changed between two reports of one adapter (before and after an update)");
    diff->add_option("BEFORE", o->before, "The older report: report.json or report.dsse.json")->required();
    diff->add_option("AFTER", o->after, "The newer report, of the same adapter")->required();
    diff->add_option("--format", o->format, "md (Markdown, the default) or json")
        ->check(CLI::IsMember({"md", "json"}));
    diff->add_option("--out", o->out, "Write to this file, replaced in one rename (default: standard output)");
    diff->footer(
        "Lists the verdicts that changed (a regression: the newer verdict is more severe in SPEC.md section 5's "
        "order, or missing), the figures that moved beyond either report's spread over its seeds, the instances "
        "only one report has, and the differences in what the runs saw (the adapter's info and options, claims, "
        "catalog, profile, depth, kcs, host). Signatures are not checked: run kcs verify for that.\n"
        "Exit 0 when no verdict regressed, 1 when one did, 2 on an unreadable file, a file that is not a KCS "
        "report, or reports of two different adapters.");
    diff->callback([&exit_code, o] { exit_code = run_diff(*o); });
}

}  // namespace kcs::cli
