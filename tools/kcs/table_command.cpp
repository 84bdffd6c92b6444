// kcs table: conformance reports side by side, contract classes as rows and
// adapters as columns. Every report is verified first, as kcs verify does:
// a table is often read as a certificate, so it shows nothing that a
// trusted key did not sign unless asked to (--allow-unsigned), and then
// marks it.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/reports/table.hpp"
#include "kcs/reports/verify.hpp"
#include "trusted_inputs.hpp"

namespace kcs::cli {

namespace {

struct TableOptions {
    std::vector<std::string> reports;
    std::vector<std::string> pubkeys;
    std::string format = "md";
    bool allow_unsigned = false;
    std::string out;
    std::vector<std::string> findings;  // ADAPTER=URL
};

// Why a report is not in the table, one line per failed check.
struct Refusal {
    std::string file;
    std::vector<std::string> reasons;
};

// A report whose content checks all pass but that no trusted key signed:
// shown only with --allow-unsigned. Any other failure (a broken envelope,
// a changed verdict, a catalog this kcs does not carry, a schema error)
// refuses it whatever the options.
bool merely_unsigned(const reports::Verification& v) {
    return !v.signature_valid && v.failures.empty() && v.statement.is_object();
}

std::vector<std::string> reasons_of(const reports::Verification& v, bool allow_unsigned) {
    std::vector<std::string> reasons = v.failures;
    if (!v.signature_valid) {
        std::string line =
            "signature: " + (v.signature_problem.empty() ? "no signature by a trusted key" : v.signature_problem);
        if (!allow_unsigned && v.failures.empty()) line += " (--allow-unsigned shows it, marked UNSIGNED)";
        reasons.insert(reasons.begin(), line);
    }
    return reasons;
}

// The key's label says whose it is; the keyid, shortened, only tells keys apart.
std::string signer_of(const reports::Verification& v) {
    std::string signer = v.signer_label.empty() ? "unlabelled key" : v.signer_label;
    return signer.append(" (keyid ").append(v.signer_keyid.substr(0, 16)).append(")");
}

void print_refusals(const std::vector<Refusal>& refusals) {
    for (const auto& r : refusals) {
        std::cerr << "kcs table: refused " << r.file << ":\n";
        for (const auto& reason : r.reasons) std::cerr << "  - " << reason << "\n";
    }
}

int run_table(const TableOptions& o) {
    if (o.pubkeys.empty() && !o.allow_unsigned) {
        std::cerr << "kcs table: --pubkey KEY is required to verify the reports (or --allow-unsigned to show "
                     "unsigned ones, marked UNSIGNED)\n";
        return 2;
    }
    const auto format = reports::parse_table_format(o.format);
    if (!format) {
        std::cerr << "kcs table: unknown --format " << o.format << " (md, html or csv)\n";
        return 2;
    }
    const auto trusted = load_trusted_inputs(o.pubkeys);

    std::vector<reports::TableEntry> entries;
    std::vector<Refusal> refusals;
    for (const auto& file : o.reports) {
        reports::Verification v;
        try {
            v = reports::verify_report_file(file, trusted.inputs);
        } catch (const reports::ReportReadError& e) {
            std::cerr << "kcs table: " << e.what() << "\n";
            return 2;
        }
        if (v.valid()) {
            entries.push_back({file, std::move(v.statement), reports::Admission::verified, signer_of(v)});
        } else if (o.allow_unsigned && merely_unsigned(v)) {
            std::cerr << "kcs table: " << file << " is shown UNSIGNED: " << reasons_of(v, true).front() << "\n";
            entries.push_back({file, std::move(v.statement), reports::Admission::unsigned_allowed, ""});
        } else {
            refusals.push_back({file, reasons_of(v, o.allow_unsigned)});
        }
    }
    if (!refusals.empty()) {
        print_refusals(refusals);
        return 1;
    }

    std::string text;
    try {
        reports::ComparisonTable table = reports::build_table(entries);
        for (const auto& given : o.findings) {
            const auto equals = given.find('=');
            if (equals == std::string::npos || equals == 0 || equals + 1 == given.size()) {
                std::cerr << "kcs table: --findings " << given << ": expected ADAPTER=URL\n";
                return 2;
            }
            const std::string adapter = given.substr(0, equals);
            bool found = false;
            for (auto& column : table.columns)
                if (column.adapter == adapter) column.findings = given.substr(equals + 1), found = true;
            if (!found) {
                std::cerr << "kcs table: --findings " << given << ": no report of adapter " << adapter << "\n";
                return 2;
            }
        }
        text = reports::render_table(table, *format);
    } catch (const reports::TableError& e) {
        std::cerr << "kcs table: " << e.what() << "\n";
        return 2;
    }
    if (o.out.empty()) {
        std::cout << text;
    } else {
        reports::write_file_atomically(o.out, text);
        std::cerr << "kcs table: wrote " << o.out << "\n";
    }
    return 0;
}

}  // namespace

void add_table_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<TableOptions>();
    auto* table = app.add_subcommand("table", "Compare conformance reports: contract classes x adapters");
    table
        ->add_option("REPORT", o->reports,
                     "A report: a signed envelope (report.dsse.json) or, with --allow-unsigned, a bare Statement "
                     "(report.json); one column each, in the order given")
        ->required();
    table->add_option("--pubkey", o->pubkeys, "A trusted public key (PREFIX.pub from kcs keygen); repeatable");
    table->add_option("--format", o->format, "md (Markdown), html (one self-contained page) or csv (RFC 4180)")
        ->capture_default_str()
        ->check(CLI::IsMember({"md", "markdown", "html", "csv"}));
    table->add_flag("--allow-unsigned", o->allow_unsigned,
                    "Also show reports no trusted key signed (bare Statements, other keys) whose other checks "
                    "pass; their columns are marked UNSIGNED");
    table->add_option("--out", o->out, "Write the table to this file (default: standard output)");
    table->add_option("--findings", o->findings,
                      "ADAPTER=URL: where that adapter's FAILs are explained (its FINDINGS.md); its heading and "
                      "FAIL cells link there (md and html). Repeatable");
    table->footer(
        "Each report is verified first, as kcs verify does (signature, schema, catalog, every verdict re-judged "
        "from its evidence). One that fails is refused with what failed, and no table is written. Reports of "
        "different spec versions or catalogs are not compared.\n"
        "Rows: every contract class, then each adapter's profile verdict, coverage (executed / applicable), pass "
        "rate (PASS / executed), spec version, profile, depth, signature and file. Cells: PASS, FAIL, CRASH "
        "(crash or timeout), ERROR, INCOMPLETE, N/A (no applicable instance) or - (not planned), with the number "
        "of instances and the key figure: the measurement that came closest to, or went furthest past, its "
        "bound.\n"
        "Exit 0 with the table, 1 when a report does not verify, 2 on unreadable input, a bad key file or mixed "
        "catalogs.");
    table->callback([&exit_code, o] { exit_code = run_table(*o); });
}

}  // namespace kcs::cli
