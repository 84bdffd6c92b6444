// A comparison table in Markdown, self-contained HTML and CSV. Every text
// that comes from a report (adapter names, devices, vendors, file names)
// is escaped for the format: a vendor chooses what its adapter reports.
// Some text is appended piece by piece: GCC 12 warns falsely (-Wrestrict)
// on "literal" + std::string chains.
#include "kcs/reports/table.hpp"
#include "render_common.hpp"
#include "table_grid.hpp"

namespace kcs::reports::table_detail {

namespace {

using render::csv_field;
using render::escape_html;
using render::escape_markdown;

constexpr std::string_view kTitle = "KCS comparison table";

// A link target in Markdown's (...): spaces and parentheses percent-encoded,
// so that the target ends where it should.
std::string markdown_link_target(const std::string& url) {
    std::string out;
    for (const char c : url) {
        if (c == ' ') out += "%20";
        else if (c == '(') out += "%28";
        else if (c == ')') out += "%29";
        else if (c == '<') out += "%3C";
        else if (c == '>') out += "%3E";
        else if (c == '\n') out += "%0A";
        else out += c;
    }
    return out;
}

}  // namespace

std::string markdown_table(const Grid& grid) {
    std::string out = "# " + std::string(kTitle) + "\n\n" + escape_markdown(grid.caption) + "\n\n| Class |";
    for (const auto& h : grid.headings) {
        out += " **" + escape_markdown(h.adapter) + "**";
        for (const auto& line : h.lines) out += "<br>" + escape_markdown(line);
        if (h.unsigned_report) out += "<br>**UNSIGNED**";
        if (!h.findings.empty()) {
            out += "<br>[findings](";
            out += markdown_link_target(h.findings);
            out += ")";
        }
        out += " |";
    }
    out += "\n| --- |";
    for (std::size_t i = 0; i < grid.headings.size(); ++i) out += " --- |";
    out += "\n";

    const auto add_row = [&out](const GridRow& row, bool class_row) {
        out += "| " +
               (class_row ? "**" + escape_markdown(row.label) + "** " + escape_markdown(row.title)
                          : escape_markdown(row.label)) +
               " |";
        for (const auto& cell : row.cells) {
            out += class_row ? " **" : " ";
            if (cell.link.empty()) {
                out += escape_markdown(cell.main);
            } else {
                out += "[";
                out += escape_markdown(cell.main);
                out += "](";
                out += markdown_link_target(cell.link);
                out += ")";
            }
            if (class_row) out += "**";
            if (!cell.figure.empty()) out += "<br>" + escape_markdown(cell.figure);
            out += " |";
        }
        out += "\n";
    };
    for (const auto& row : grid.class_rows) add_row(row, true);
    for (const auto& row : grid.report_rows) add_row(row, false);

    out += "\n";
    for (const auto& note : grid.notes) out += "- " + escape_markdown(note) + "\n";
    return out;
}

std::string html_table(const Grid& grid) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        // Nothing outside the page is loaded, whatever a report says.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>" +
        std::string(kTitle) +
        "</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
        "table{border-collapse:collapse}\n"
        "th,td{border:1px solid #bbb;padding:.35em .6em;vertical-align:top;text-align:left}\n"
        "thead th{background:#eee}\n"
        "td.pass{background:#e1f3e1}td.fail{background:#f8d7d7}td.crash{background:#fbe2c5}\n"
        "td.incomplete{background:#fff2c0}td.na{color:#777}\n"
        ".fig{display:block;font-size:.85em;color:#444}.title{font-weight:normal}\n"
        ".unsigned{color:#b00;font-weight:bold}.device{font-weight:normal}\n"
        "tbody.report th{font-weight:normal;font-style:italic}\n"
        "</style>\n</head>\n<body>\n<h1>" +
        std::string(kTitle) + "</h1>\n<p>" + escape_html(grid.caption) +
        "</p>\n<table>\n<thead>\n<tr><th scope=\"col\">Class</th>";
    for (const auto& h : grid.headings) {
        out += "<th scope=\"col\">" + escape_html(h.adapter);
        for (const auto& line : h.lines) out += "<br><span class=\"device\">" + escape_html(line) + "</span>";
        if (h.unsigned_report) out += "<br><span class=\"unsigned\">UNSIGNED</span>";
        if (!h.findings.empty()) {
            out += "<br><a href=\"";
            out += escape_html(h.findings);
            out += "\">findings</a>";
        }
        out += "</th>";
    }
    out += "</tr>\n</thead>\n";

    const auto add_row = [&out](const GridRow& row, bool class_row) {
        out += "<tr><th scope=\"row\">";
        out += class_row ? "<code>" + escape_html(row.label) + "</code><br><span class=\"title\">" +
                               escape_html(row.title) + "</span>"
                         : escape_html(row.label);
        out += "</th>";
        for (const auto& cell : row.cells) {
            out += "<td";
            if (!cell.tone.empty()) out += " class=\"" + escape_html(cell.tone) + "\"";
            if (!cell.tooltip.empty()) out += " title=\"" + escape_html(cell.tooltip) + "\"";
            out += class_row ? "><strong>" : ">";
            if (cell.link.empty()) {
                out += escape_html(cell.main);
            } else {
                out += "<a href=\"";
                out += escape_html(cell.link);
                out += "\">";
                out += escape_html(cell.main);
                out += "</a>";
            }
            if (class_row) out += "</strong>";
            if (!cell.figure.empty()) out += "<span class=\"fig\">" + escape_html(cell.figure) + "</span>";
            out += "</td>";
        }
        out += "</tr>\n";
    };
    out += "<tbody>\n";
    for (const auto& row : grid.class_rows) add_row(row, true);
    out += "</tbody>\n<tbody class=\"report\">\n";
    for (const auto& row : grid.report_rows) add_row(row, false);
    out += "</tbody>\n</table>\n";
    for (const auto& note : grid.notes) out += "<p>" + escape_html(note) + "</p>\n";
    return out + "</body>\n</html>\n";
}

std::string csv_table(const Grid& grid) {
    constexpr std::string_view kEnd = "\r\n";
    std::string out = "class,title";
    for (const auto& h : grid.headings) {
        std::string name = h.adapter;
        for (const auto& line : h.lines) name += "; " + line;
        if (h.unsigned_report) name += "; UNSIGNED";
        out += ',';
        out += csv_field(name);
        out += ',';
        out += csv_field(name + ": key figure");
    }
    out += kEnd;
    for (const auto* rows : {&grid.class_rows, &grid.report_rows}) {
        for (const auto& row : *rows) {
            out += csv_field(row.label) + "," + csv_field(row.title);
            for (const auto& cell : row.cells) {
                out += ',';
                out += csv_field(cell.main);
                out += ',';
                out += csv_field(cell.figure);
            }
            out += kEnd;
        }
    }
    return out;
}

}  // namespace kcs::reports::table_detail

namespace kcs::reports {

std::string render_table(const ComparisonTable& table, TableFormat format) {
    const auto grid = table_detail::make_grid(table);
    switch (format) {
        case TableFormat::markdown:
            return table_detail::markdown_table(grid);
        case TableFormat::html:
            return table_detail::html_table(grid);
        case TableFormat::csv:
            return table_detail::csv_table(grid);
    }
    return {};
}

}  // namespace kcs::reports
