// Comparison tables (kcs table): several conformance reports of one
// catalog side by side, contract classes as rows and adapters (one per
// report) as columns. Each cell says how the class went for that adapter
// and shows its key figure: the measurement that came closest to, or went
// furthest past, its bound. Reports are verified before they get here; the
// table only records how each was admitted, so an unsigned one is marked
// wherever it is shown.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/reports/report.hpp"

namespace kcs::reports {

// How a report came to be in the table.
enum class Admission {
    verified,          // every check passed, signed by a trusted key
    unsigned_allowed,  // content checks passed, but no trusted signature (--allow-unsigned)
};

struct TableEntry {
    std::string source;  // where the report came from (a file name), for messages and notes
    Json statement;      // the in-toto Statement
    Admission admission = Admission::verified;
    std::string signer;  // verified: whose key signed it, as shown (its label and a short keyid)
};

// The outcome of a class for one adapter, from its instances' verdicts,
// most severe first.
enum class CellOutcome {
    fail,            // an instance FAILed
    crash,           // a CRASH or TIMEOUT and no FAIL
    error,           // an ERROR (no judgement reached), no FAIL, CRASH or TIMEOUT
    consequence,     // FAILs, each a consequence of another class's FAIL (consequence_of), and nothing worse
    incomplete,      // instances missing, or the report itself does not call the class complete
    pass,            // every applicable instance PASSed (UNSUPPORTED ones only lower coverage)
    not_applicable,  // no planned instance applies under the profile and the claims
    not_planned,     // the report plans no instance of the class (e.g. an --op restriction)
};
std::string_view to_string(CellOutcome outcome);  // "FAIL", "CRASH", "ERROR", "CONSEQUENCE", "INCOMPLETE", "PASS", "N/A", "—"

// The worst measured figure of a class: the one with the largest ratio to
// its bound (the inverse ratio for "at least" bounds such as p_eff).
struct KeyFigure {
    std::string text;         // short form with its bound: "max 1 ulp (≤3)", "D/B 24.2 (≤2)"
    std::string figure_name;  // as the report names it
    std::string instance_id;  // the instance it came from
    double ratio = 0;         // figure against bound; above 1 is past the bound
};

struct TableCell {
    CellOutcome outcome = CellOutcome::not_planned;
    std::size_t applicable = 0;  // instances that apply
    std::size_t counted = 0;     // of those, the ones with the outcome's verdicts (PASS for pass, ...)
    std::optional<KeyFigure> key;
    std::string cause;  // consequence: the instance whose FAIL explains the first of them
};

struct ClassRow {
    std::string class_id;
    std::string title;
    std::vector<TableCell> cells;  // one per column
};

struct AdapterColumn {
    std::string source;
    Admission admission = Admission::verified;
    std::string signer;
    std::string adapter;  // adapter_name from info(), else the adapter as named on the command line
    std::string adapter_version;
    std::string device;
    std::string vendor;
    std::string driver_version;
    std::vector<std::string> options;  // key=value: they tell two runs of one adapter apart
    std::string run_date;              // the day the run started, UTC: "2026-12-07"
    // The operators the run was restricted to (kcs certify --op; empty:
    // every operator of the catalog) and its patterns over instance ids
    // (--include, --exclude). A restricted run's verdict is partial.
    std::vector<std::string> operators, include, exclude;
    // Where this adapter's FAILs are explained (its FINDINGS.md, each with
    // a standalone repro); empty: nowhere given. Its FAIL cells link there.
    std::string findings;
    std::string profile_id, profile_title;
    std::string depth_id;
    bool depth_certifiable = false;
    std::string state;            // in_progress | interrupted | finished
    std::string profile_verdict;  // CONFORMANT | NON-CONFORMANT | INCOMPLETE
    std::size_t applicable = 0, executed = 0, passed = 0;
    std::optional<double> coverage;   // executed / applicable
    std::optional<double> pass_rate;  // PASS / executed
};

struct ComparisonTable {
    std::string spec_version;
    std::string spec_digest;
    std::vector<AdapterColumn> columns;  // in the order the reports were given
    std::vector<ClassRow> rows;          // every class any report plans, by class id
};

// A table that cannot be made: reports of different catalogs, or a
// Statement that is not a KCS report. what() names the reports.
class TableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// At least one entry; all of one spec version and digest.
ComparisonTable build_table(const std::vector<TableEntry>& entries);

enum class TableFormat { markdown, html, csv };
std::optional<TableFormat> parse_table_format(std::string_view name);  // "md" | "markdown" | "html" | "csv"

// Markdown: a GitHub table and notes on each column's source. HTML: one
// self-contained page, inline CSS, every text escaped. CSV (RFC 4180): a
// header, then one record per row; each adapter has two fields, the
// outcome (or value) and the key figure.
std::string render_table(const ComparisonTable& table, TableFormat format);

}  // namespace kcs::reports
