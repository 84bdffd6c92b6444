// A report as people and CI systems read it (reports.md, "Renderers"):
//   html      one self-contained page (inline CSS and SVG, no external
//             assets): the profile banner, a class x operator matrix,
//             pictures and every instance's details with its repro command
//   markdown  the summary, the matrix and the non-passing instances
//   csv       one row per instance (RFC 4180)
//   junit     JUnit XML: one testsuite per class, one testcase per instance
// The renderers read the Statement as written (report-v1.schema.json) and
// tolerate fields they do not know or miss; every string from the report is
// escaped for the format it lands in.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

enum class RenderFormat { html, markdown, csv, junit };

// "html", "md" (or "markdown"), "csv", "junit"; none for anything else.
std::optional<RenderFormat> parse_render_format(std::string_view name);

// What is known about the signature over what is rendered: a bare Statement
// carries none; an envelope's signature is only known good once verified.
enum class SignatureStatus {
    unsigned_statement,  // a bare Statement: no signature at all
    not_checked,         // a DSSE envelope whose signature nobody checked
    verified,            // a trusted key's signature verified (kcs verify's checks passed)
};

struct RenderContext {
    SignatureStatus signature = SignatureStatus::unsigned_statement;
    std::string signer_keyid;  // verified: the key that verified
    std::string signer_label;
    std::string source;  // the file rendered, shown as where the page came from; may be empty
};

// A worst element's error and bound are both 0 where its case counts the
// elements whose bits or IEEE class differ from what is allowed (a NaN, a
// sign of zero, no allowed evaluation) instead of measuring a distance;
// "error 0, bound 0" would then read as no failure at all. For such an
// element, what to write in place of its error and bound; "" when the
// error is a measured distance.
std::string unmeasured_error_text(double error, double bound);

// One line for the banner: "UNSIGNED ...", "UNVERIFIED: an envelope whose signature was not checked ...",
// "SIGNED and verified: LABEL (keyid ...)".
std::string signature_line(const RenderContext& context);

// The document is not a KCS report: not an object, another _type or
// predicateType, no predicate, instances or summary. what() says which.
class NotAReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws NotAReportError unless `statement` is a KCS conformance report
// Statement that the renderers can read.
void check_renderable(const spec::Json& statement);

// The rendered document. Throws NotAReportError as check_renderable does.
std::string render_report(const spec::Json& statement, RenderFormat format, const RenderContext& context);

}  // namespace kcs::reports
