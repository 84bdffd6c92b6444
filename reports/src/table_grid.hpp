// The comparison table as text, before any markup: what each heading and
// cell says, so that Markdown, HTML and CSV show the same words. Internal
// to the table code.
#pragma once

#include <string>
#include <vector>

#include "kcs/reports/table.hpp"

namespace kcs::reports::table_detail {

struct GridHeading {
    std::string adapter;  // name and version, with options in brackets
    // Below the name, one per line: device, vendor, driver, profile and
    // depth, scope, run date; so two columns never read alike unless
    // their runs were alike (then the report file is added).
    std::vector<std::string> lines;
    bool unsigned_report = false;
    std::string findings;  // the column's findings page, or empty
};

// `tone` names how the cell is coloured: pass, fail, crash, incomplete, na, or empty.
struct GridCell {
    std::string main;    // "FAIL 6/15", "CONFORMANT", "100%"
    std::string figure;  // the key figure, or empty
    std::string tone;
    std::string tooltip;  // where the figure came from
    std::string link;     // a FAIL cell: where the failure is explained (the column's findings)
};

struct GridRow {
    std::string label;  // a class id, or what the row shows ("Profile verdict")
    std::string title;  // the class title; empty for the other rows
    std::vector<GridCell> cells;
};

struct Grid {
    std::string caption;  // "spec 1.0.0 (sha256:...), 2 reports"
    std::vector<GridHeading> headings;
    std::vector<GridRow> class_rows;
    std::vector<GridRow> report_rows;  // profile verdict, coverage, pass rate, spec, profile, depth, signature, file
    std::vector<std::string> notes;    // what the cells mean
};

Grid make_grid(const ComparisonTable& table);

std::string markdown_table(const Grid& grid);
std::string html_table(const Grid& grid);
std::string csv_table(const Grid& grid);

}  // namespace kcs::reports::table_detail
