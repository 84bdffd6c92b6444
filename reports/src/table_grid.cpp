// What each heading and cell of a comparison table says, in words shared
// by every format.
#include "table_grid.hpp"

#include "kcs/harness/figures.hpp"
#include "table_figures.hpp"

namespace kcs::reports::table_detail {

namespace {

std::string tone_of(CellOutcome outcome) {
    switch (outcome) {
        case CellOutcome::pass:
            return "pass";
        case CellOutcome::fail:
            return "fail";
        case CellOutcome::crash:
            return "crash";
        case CellOutcome::error:
        case CellOutcome::consequence:
        case CellOutcome::incomplete:
            return "incomplete";
        case CellOutcome::not_applicable:
        case CellOutcome::not_planned:
            return "na";
    }
    return "";
}

std::string tone_of_verdict(const std::string& verdict) {
    if (verdict == "CONFORMANT") return "pass";
    if (verdict == "NON-CONFORMANT") return "fail";
    return "incomplete";
}

GridCell class_cell(const TableCell& cell) {
    GridCell out;
    out.main = std::string(to_string(cell.outcome));
    // "FAIL 6/15": 6 of the 15 instances that apply failed.
    if (cell.outcome != CellOutcome::not_applicable && cell.outcome != CellOutcome::not_planned)
        out.main.append(" ").append(std::to_string(cell.counted)).append("/").append(std::to_string(cell.applicable));
    out.tone = tone_of(cell.outcome);
    if (cell.key) {
        out.figure = cell.key->text;
        out.tooltip = cell.key->instance_id + ": " + harness::figure_meaning(cell.key->figure_name);
    }
    if (cell.outcome == CellOutcome::consequence)
        out.tooltip = "each FAIL follows from another class's FAIL on the same configuration, e.g. " + cell.cause;
    if (cell.outcome == CellOutcome::not_planned) out.tooltip = "the report plans no instance of this class";
    if (cell.outcome == CellOutcome::not_applicable)
        out.tooltip = "no planned instance applies under the profile and the claims";
    return out;
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& word : words) out += (out.empty() ? "" : ", ") + word;
    return out;
}

// How the run was restricted: "--op softmax, matmul", "--include v1/C-ACC-*";
// empty: not at all.
std::vector<std::string> restrictions(const AdapterColumn& c) {
    std::vector<std::string> out;
    if (!c.operators.empty()) out.push_back("--op " + joined(c.operators));
    for (const auto& p : c.include) out.push_back("--include " + p);
    for (const auto& p : c.exclude) out.push_back("--exclude " + p);
    return out;
}

GridHeading heading_of(const AdapterColumn& column) {
    GridHeading heading;
    heading.adapter = column.adapter;
    if (!column.adapter_version.empty()) heading.adapter += " " + column.adapter_version;
    if (!column.options.empty()) heading.adapter += " [" + joined(column.options) + "]";
    for (const auto* part : {&column.device, &column.vendor})
        if (!part->empty()) heading.lines.push_back(*part);
    if (!column.driver_version.empty()) heading.lines.push_back("driver " + column.driver_version);
    heading.lines.push_back("profile " + column.profile_id + ", depth " + column.depth_id);
    const auto restricted = restrictions(column);
    heading.lines.push_back(restricted.empty() ? "every operator" : "only " + joined(restricted));
    if (!column.run_date.empty()) heading.lines.push_back("run " + column.run_date);
    heading.unsigned_report = column.admission == Admission::unsigned_allowed;
    heading.findings = column.findings;
    return heading;
}

// "60% (81/135)": the fraction and the counts it comes from.
std::string fraction_text(const std::optional<double>& fraction, std::size_t part, std::size_t whole) {
    const std::string counts = " (" + std::to_string(part) + "/" + std::to_string(whole) + ")";
    return fraction ? percent_text(*fraction) + counts : "—" + counts;
}

template <typename Text>
GridRow report_row(const ComparisonTable& table, std::string label, Text text) {
    GridRow row{std::move(label), "", {}};
    for (const auto& column : table.columns) row.cells.push_back(text(column));
    return row;
}

}  // namespace

Grid make_grid(const ComparisonTable& table) {
    Grid grid;
    grid.caption = "spec " + table.spec_version + " (" + table.spec_digest + "), " +
                   std::to_string(table.columns.size()) + (table.columns.size() == 1 ? " report" : " reports");
    for (const auto& column : table.columns) grid.headings.push_back(heading_of(column));
    // Two runs alike in every heading line: the report files tell them apart.
    const auto alike = [](const GridHeading& a, const GridHeading& b) {
        return a.adapter == b.adapter && a.lines == b.lines;
    };
    std::vector<bool> named(grid.headings.size(), false);
    for (std::size_t i = 0; i < grid.headings.size(); ++i)
        for (std::size_t j = 0; j < grid.headings.size(); ++j)
            if (i != j && alike(grid.headings[i], grid.headings[j])) named[i] = true;
    for (std::size_t i = 0; i < grid.headings.size(); ++i)
        if (named[i]) grid.headings[i].lines.push_back("report " + table.columns[i].source);
    for (const auto& row : table.rows) {
        GridRow out{row.class_id, row.title, {}};
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            out.cells.push_back(class_cell(row.cells[i]));
            // Primary FAILs only: a CONSEQUENCE cell is explained by the FAIL it follows from.
            if (row.cells[i].outcome == CellOutcome::fail && i < table.columns.size())
                out.cells.back().link = table.columns[i].findings;
        }
        grid.class_rows.push_back(std::move(out));
    }

    auto& rows = grid.report_rows;
    rows.push_back(report_row(table, "Profile verdict", [](const AdapterColumn& c) {
        const auto restricted = restrictions(c);
        if (restricted.empty()) return GridCell{c.profile_verdict, "", tone_of_verdict(c.profile_verdict), "", ""};
        // A restricted run judged only the instances it ran: never a plain CONFORMANT.
        return GridCell{c.profile_verdict + ", PARTIAL", "only " + joined(restricted),
                        c.profile_verdict == "CONFORMANT" ? "incomplete" : tone_of_verdict(c.profile_verdict),
                        "the run was restricted to some instances: its verdict and coverage speak of those alone",
                        ""};
    }));
    rows.push_back(report_row(table, "Coverage", [](const AdapterColumn& c) {
        return GridCell{fraction_text(c.coverage, c.executed, c.applicable), "", "", "executed / applicable instances", ""};
    }));
    rows.push_back(report_row(table, "Pass rate", [](const AdapterColumn& c) {
        return GridCell{fraction_text(c.pass_rate, c.passed, c.executed), "", "", "PASS / executed instances", ""};
    }));
    rows.push_back(report_row(table, "Spec version", [&table](const AdapterColumn&) {
        return GridCell{table.spec_version, "", "", table.spec_digest, ""};
    }));
    rows.push_back(report_row(table, "Profile", [](const AdapterColumn& c) {
        return GridCell{c.profile_id, "", "", c.profile_title, ""};
    }));
    rows.push_back(report_row(table, "Depth", [](const AdapterColumn& c) {
        std::string text = c.depth_id + (c.depth_certifiable ? "" : " (not certifiable)");
        if (c.state != "finished") text += ", run " + c.state;
        return GridCell{text, "", "", "", ""};
    }));
    rows.push_back(report_row(table, "Signature", [](const AdapterColumn& c) {
        if (c.admission == Admission::unsigned_allowed)
            return GridCell{"UNSIGNED", "", "incomplete", "content checks passed; no signature by a trusted key", ""};
        return GridCell{c.signer.empty() ? "verified" : "verified: " + c.signer, "", "", "", ""};
    }));
    rows.push_back(report_row(table, "Report", [](const AdapterColumn& c) { return GridCell{c.source, "", "", "", ""}; }));

    grid.notes = {
        "Each cell: the class's outcome for the adapter, with how many of the instances that apply have that "
        "outcome (PASS 15/15, FAIL 6/15), and its key figure: the measurement that came closest to, or went "
        "furthest past, its bound (≤ a maximum, ≥ a minimum).",
        "FAIL: an instance failed. CRASH: a crash or timeout and no FAIL. ERROR: no judgement reached. "
        "INCOMPLETE: verdicts missing or the report does not judge the class complete. N/A: no instance applies "
        "under the profile and the claims. —: the report plans no instance of the class.",
    };
    for (const auto& heading : grid.headings) {
        if (!heading.unsigned_report) continue;
        grid.notes.push_back(
            "UNSIGNED: shown with --allow-unsigned. Its content checks passed, but no trusted key "
            "signed it: it says nothing about who produced it.");
        break;
    }
    return grid;
}

}  // namespace kcs::reports::table_detail
