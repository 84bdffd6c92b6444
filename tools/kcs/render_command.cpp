// kcs render: a report as an HTML page, Markdown, CSV or JUnit XML. It reads
// a bare Statement (report.json) or a DSSE envelope (report.dsse.json),
// whose payload it decodes. Whether a signature is good is kcs verify's
// question: without --pubkey the page says "UNVERIFIED" (never "signed"); with
// it, the report is verified first, as kcs verify does, and rendered only
// when every check passes.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "report_input.hpp"
#include "trusted_inputs.hpp"
#include "kcs/reports/render.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/reports/verify.hpp"

namespace kcs::cli {

namespace {

struct RenderOptions {
    std::string report;
    std::string format;
    std::string out;
    std::vector<std::string> pubkeys;
};

using InputError = ReportInputError;

struct Loaded {
    spec::Json statement;
    reports::RenderContext context;
};

Loaded load_unverified(const std::string& file) {
    UnverifiedReport report = read_unverified_report(file);
    Loaded loaded;
    loaded.statement = std::move(report.statement);
    loaded.context.source = file;
    loaded.context.signature = report.from_envelope ? reports::SignatureStatus::not_checked
                                                    : reports::SignatureStatus::unsigned_statement;
    return loaded;
}

// Verified as kcs verify does; none (after saying why on stderr) when a check fails.
std::optional<Loaded> load_verified(const std::string& file, const std::vector<std::string>& pubkeys) {
    const auto trusted = load_trusted_inputs(pubkeys);
    reports::Verification v;
    try {
        v = reports::verify_report_file(file, trusted.inputs);
    } catch (const reports::ReportReadError& e) {
        throw InputError{e.what()};
    }
    if (!v.valid()) {
        std::cerr << "kcs render: " << file << " does not verify, so it is not rendered:\n";
        if (!v.signature_valid)
            std::cerr << "  - signature: "
                      << (v.signature_problem.empty() ? "no signature by a trusted key" : v.signature_problem) << "\n";
        for (const auto& failure : v.failures) std::cerr << "  - " << failure << "\n";
        std::cerr << "(without --pubkey it is rendered marked \"UNVERIFIED\")\n";
        return std::nullopt;
    }
    Loaded loaded;
    loaded.statement = std::move(v.statement);
    loaded.context.signature = reports::SignatureStatus::verified;
    loaded.context.signer_keyid = v.signer_keyid;
    loaded.context.signer_label = v.signer_label;
    loaded.context.source = file;
    return loaded;
}

int run_render(const RenderOptions& o) {
    const auto format = reports::parse_render_format(o.format);
    if (!format) {
        std::cerr << "kcs render: unknown --format " << o.format << " (html, md, csv or junit)\n";
        return 2;
    }
    std::string text;
    try {
        std::optional<Loaded> loaded =
            o.pubkeys.empty() ? load_unverified(o.report) : load_verified(o.report, o.pubkeys);
        if (!loaded) return 1;
        text = reports::render_report(loaded->statement, *format, loaded->context);
    } catch (const InputError& e) {
        std::cerr << "kcs render: " << e.message << "\n";
        return 2;
    } catch (const reports::NotAReportError& e) {
        std::cerr << "kcs render: " << o.report << ": " << e.what() << "\n";
        return 2;
    } catch (const reports::KeyFileError& e) {
        std::cerr << "kcs render: " << e.what() << "\n";
        return 2;
    }
    if (o.out.empty()) {
        std::cout << text;
        return std::cout.flush() ? 0 : 2;
    }
    try {
        reports::write_file_atomically(o.out, text);
    } catch (const std::runtime_error& e) {
        std::cerr << "kcs render: " << e.what() << "\n";
        return 2;
    }
    std::cerr << "kcs render: wrote " << o.out << "\n";
    return 0;
}

}  // namespace

void add_render_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<RenderOptions>();
    auto* render = app.add_subcommand("render", "Render a report as HTML, Markdown, CSV or JUnit XML");
    render->add_option("REPORT", o->report, "A bare Statement (report.json) or a DSSE envelope (report.dsse.json)")
        ->required();
    render
        ->add_option("--format", o->format,
                     "html (one self-contained page), md (Markdown), csv (one row per instance) or junit "
                     "(JUnit XML: one testsuite per class, one testcase per instance)")
        ->required()
        ->check(CLI::IsMember({"html", "md", "markdown", "csv", "junit"}));
    render->add_option("--out", o->out, "Write to this file, replaced in one rename (default: standard output)");
    render->add_option("--pubkey", o->pubkeys,
                       "Verify the report first with this trusted public key (PREFIX.pub from kcs keygen; "
                       "repeatable), as kcs verify does; the page then names the signer");
    render->footer(
        "An envelope is rendered from its payload. Without --pubkey its signature is not checked and every "
        "format says so (\"UNVERIFIED\"); a bare Statement is marked UNSIGNED. With --pubkey a report "
        "that fails any check is not rendered.\n"
        "Exit 0 when rendered, 1 when --pubkey verification fails, 2 on an unreadable file, a file that is not "
        "JSON, not an envelope or not a KCS report (another _type or predicateType), or a bad key file.");
    render->callback([&exit_code, o] { exit_code = run_render(*o); });
}

}  // namespace kcs::cli
