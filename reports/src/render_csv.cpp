// The CSV report: one row per instance (RFC 4180: CRLF line ends, fields
// quoted where they must be, text that looks like a formula kept as text).
// Figures are written exactly, so a spreadsheet or script reads back the
// doubles the report holds.
#include <string>

#include "render_common.hpp"

namespace kcs::reports::render {

namespace {

constexpr const char* kHeader = "id,class,operator,config,variant,verdict,figure_name,figure,bound,signature,repro";

std::string row(const Json& instance) {
    static const Json no_evidence;
    const Json* decider = deciding_case(instance);
    const Json& evidence = decider ? member(*decider, "evidence") : no_evidence;
    const std::string fields[] = {
        text(instance, "id"),
        text(instance, "class"),
        text(instance, "operator"),
        text(member(instance, "config"), "id"),
        text(instance, "variant"),
        verdict_of(instance),
        text(evidence, "figure_name"),
        exact_number(member(evidence, "figure")),
        exact_number(member(evidence, "bound")),
        decider ? text(*decider, "signature") : "",
        text(instance, "repro"),
    };
    std::string out;
    for (const auto& field : fields) {
        if (!out.empty()) out += ',';
        out += csv_field(field);
    }
    return out;
}

}  // namespace

std::string render_csv(const Json& statement) {
    std::string out = std::string(kHeader) + "\r\n";
    for (const auto& instance : member(member(statement, "predicate"), "instances")) out += row(instance) + "\r\n";
    return out;
}

}  // namespace kcs::reports::render
