// What the renderers share: escaping for each output format, reading the
// report without trusting its shape, verdict labels, the class x operator
// matrix with each cell's key figure, and the facts of the page header.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kcs/reference/number_text.hpp"
#include "kcs/reports/render.hpp"

namespace kcs::reports::render {

using Json = spec::Json;

// ---- escaping ---------------------------------------------------------------

// Text and attribute values in HTML and XML: & < > " ' as references, and
// the control characters XML 1.0 forbids (all below 0x20 but tab, newline
// and carriage return) as U+FFFD, so a hostile message cannot break the
// document. escape_xml_attribute also writes tab, newline and carriage
// return as references, which attribute-value normalisation would eat.
std::string escape_html(std::string_view text);
std::string escape_xml_attribute(std::string_view text);

// One CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF
// (or starts or ends with a space), quotes doubled. A field a spreadsheet
// would take for a formula (=, +, -, @, tab or CR first) gets a leading
// apostrophe, the usual way to keep it text: adapter names, devices and
// messages are whatever the vendor's adapter reports. A number ("-1.5",
// "-inf") is left as it is, so figures read back as numbers.
std::string csv_field(std::string_view text);

// Markdown text (one line): the characters Markdown or inline HTML give a
// meaning to are backslash-escaped or written as HTML references, newlines
// become spaces, so the text reads as written inside a table cell too.
std::string escape_markdown(std::string_view text);
// A Markdown code span holding `text` verbatim, on one line.
std::string markdown_code(std::string_view text);

// ---- reading the report -------------------------------------------------------

// The member `key` of `object`, or a null Json when either is missing.
const Json& member(const Json& object, std::string_view key);
// A string member as is, a number or boolean member as text, else "".
std::string text(const Json& object, std::string_view key);
// A number, or one of the strings "nan", "inf", "-inf" (numbers JSON lacks).
std::optional<double> number(const Json& value);
// For people: ref::number_text (kcs/reference/number_text.hpp, the one
// formatter: "124.4", "7.707e25", "inf"); "" when `value` is not a number.
using ref::number_text;
std::string number_text(const Json& value);
// For machines: the shortest text that reads back as the same double.
std::string exact_number(const Json& value);
// A fraction as a percentage ("100%", "96.7%"; never 100% for less than all), "n/a" for null.
std::string percent(const Json& fraction);
// Strings of an array member joined with `separator`.
std::string joined(const Json& array, std::string_view separator);

// ---- verdicts -------------------------------------------------------------------

// An instance's verdict as the report holds it, "MISSING" for null (no
// verdict was recorded: never a pass).
std::string verdict_of(const Json& instance);
// "PASS", "FAIL", ..., "N/A" for NOT_APPLICABLE, "MISSING".
std::string verdict_label(std::string_view verdict);
// A CSS class name: "v-pass", "v-fail", "v-not-applicable", "v-missing", ...
std::string verdict_css(std::string_view verdict);
// Larger is worse: FAIL > CRASH > TIMEOUT > ERROR > MISSING > UNSUPPORTED >
// NOT_APPLICABLE > PASS (the harness's order, a missing verdict placed
// among those that keep a class from being judged).
int verdict_severity(std::string_view verdict);
// A judgement's CSS class: "j-conformant", "j-non-conformant", ...
std::string judgement_css(std::string_view judgement);
// "k-c-acc-01": a contract class as a CSS class (the HTML report's filters).
std::string class_css(std::string_view class_id);

// The case that gave the instance its verdict (worst_case), else its first
// case; null when it has none.
const Json* deciding_case(const Json& instance);
// "FIGURE_NAME = FIGURE (bound BOUND)" of a case's evidence; "" when it has
// no figure name.
std::string figure_text(const Json& case_json);

// ---- the class x operator matrix ------------------------------------------------------

struct Cell {
    std::vector<const Json*> instances;   // in report order
    std::map<std::string, int> verdicts;  // verdict -> instances
    std::string worst;                    // the most severe verdict; "" for an empty cell
    // The figure that came closest to (or went furthest past) its bound.
    std::string key_figure;        // "max 1 ulp (≤3)", as the comparison tables write it; "" when none
    std::string key_figure_title;  // "FIGURE_NAME = ... (bound ...) in INSTANCE"
};

struct Matrix {
    std::vector<std::string> classes;    // rows: the summary's classes, then any other an instance names
    std::vector<std::string> operators;  // columns: sorted
    std::map<std::pair<std::string, std::string>, Cell> cells;  // (class, operator); missing: no instance

    const Cell* cell(const std::string& class_id, const std::string& op) const;
};

Matrix build_matrix(const Json& predicate);

// "5/5 PASS" when every instance has one verdict, else "FAIL 2/5" (the
// worst verdict); "—" for an empty cell.
std::string cell_label(const Cell& cell);
// The other verdicts of a mixed cell: "3 PASS"; "" when there are none.
std::string cell_rest(const Cell& cell);

// The summary of one class (summary.classes[]) or null.
const Json& class_summary(const Json& predicate, const std::string& class_id);

// ---- header facts ------------------------------------------------------------------

// (label, value) lines for the header: adapter, device, spec, profile, depth,
// operators, claims, run, signer (when the report names one), kcs,
// environment, command.
std::vector<std::pair<std::string, std::string>> header_facts(const Json& predicate);

// "ADAPTER, profile P, depth D".
std::string report_title(const Json& predicate);

// The adapter as it names itself (info().adapter_name), else as it was
// given on the command line.
std::string adapter_name(const Json& predicate);

// Instance id without the "vN/CLASS/" prefix: "softmax/f32-f32/default".
std::string short_instance_id(const Json& instance);

// ---- the renderers --------------------------------------------------------------------

std::string render_html(const Json& statement, const RenderContext& context);
std::string render_markdown(const Json& statement, const RenderContext& context);
std::string render_csv(const Json& statement);
std::string render_junit(const Json& statement, const RenderContext& context);

}  // namespace kcs::reports::render
