// The Markdown report, for publishing: the profile's verdict, the facts of
// the run, the class x operator matrix and the instances that did not pass
// with the command that replays each.
#include <string>

#include "render_common.hpp"

namespace kcs::reports::render {

namespace {

std::string md(std::string_view s) { return escape_markdown(s); }

std::string summary_block(const Json& p, const RenderContext& context) {
    const Json& summary = member(p, "summary");
    const Json& profile = member(summary, "profile");
    const Json& counts = member(profile, "counts");
    std::string out = "**" + md(text(profile, "verdict")) + "** (profile " + md(text(profile, "id")) + ")  \n";
    out += "Coverage " + md(percent(member(profile, "coverage"))) +
           " (executed / applicable: " + md(text(counts, "executed")) + " / " + md(text(counts, "applicable")) +
           ") · pass rate " + md(percent(member(profile, "pass_rate"))) +
           " (PASS / executed: " + md(text(counts, "pass")) + " / " + md(text(counts, "executed")) + ")  \n";
    out += md(signature_line(context)) + "\n\n";
    if (member(p, "complete") != true)
        out += "The run did not finish (state " + md(text(p, "state")) +
               "): instances without a verdict count as missing, never as passes.\n\n";
    const Json& certificate = member(summary, "certificate");
    if (member(certificate, "granted") == true) {
        out += "Certificate granted" +
               std::string(context.signature == SignatureStatus::verified
                               ? ""
                               : " by the report itself (its signature is not verified here)") +
               ".\n\n";
    } else {
        out += "Not a certificate:\n\n";
        for (const auto& reason : member(certificate, "reasons"))
            out += "- " + md(reason.is_string() ? reason.get<std::string>() : "") + "\n";
        out += "\n";
    }
    if (!member(profile, "reasons").empty()) {
        out += "Why the profile is " + md(text(profile, "verdict")) + ":\n\n";
        for (const auto& reason : member(profile, "reasons"))
            out += "- " + md(reason.is_string() ? reason.get<std::string>() : "") + "\n";
        out += "\n";
    }
    return out;
}

std::string facts_table(const Json& p) {
    std::string out = "| | |\n|---|---|\n";
    for (const auto& [label, value] : header_facts(p)) out += "| " + md(label) + " | " + md(value) + " |\n";
    return out + "\n";
}

std::string matrix_table(const Json& p, const Matrix& m) {
    std::string out = "| Class | Verdict |";
    std::string rule = "|---|---|";
    for (const auto& op : m.operators) {
        out += ' ';
        out += md(op) + " |";
        rule += "---|";
    }
    out += "\n" + rule + "\n";
    for (const auto& class_id : m.classes) {
        const Json& summary = class_summary(p, class_id);
        out += "| " + md(class_id) + " " + md(text(summary, "title")) + " | " + md(text(summary, "verdict")) + " |";
        for (const auto& op : m.operators) {
            const Cell* cell = m.cell(class_id, op);
            if (!cell) {
                out += " — |";
                continue;
            }
            std::string shown = cell_label(*cell);
            if (!cell_rest(*cell).empty()) shown += " (" + cell_rest(*cell) + ")";
            out += ' ';
            out += md(shown) + " |";
        }
        out += "\n";
    }
    return out + "\n";
}

std::string non_passing(const Json& p) {
    std::string list;
    std::size_t count = 0;
    for (const auto& instance : member(p, "instances")) {
        const std::string verdict = verdict_of(instance);
        if (verdict == "PASS" || verdict == "NOT_APPLICABLE") continue;
        ++count;
        list += "- **" + md(verdict_label(verdict)) + "** " + markdown_code(text(instance, "id"));
        const Json* decider = deciding_case(instance);
        if (decider) {
            if (!text(*decider, "message").empty()) list += " — " + md(text(*decider, "message"));
            if (!figure_text(*decider).empty()) list += " (" + md(figure_text(*decider)) + ")";
        }
        list += "\n";
        if (const Json& cause = member(instance, "consequence_of"); cause.is_object())
            list += "  consequence of " + markdown_code(text(cause, "instance")) + ": " + md(text(cause, "reason")) + "\n";
        if (!text(instance, "repro").empty()) list += "  " + markdown_code(text(instance, "repro")) + "\n";
    }
    if (count == 0) return "## Not passing\n\nEvery instance passed or does not apply.\n";
    return "## Not passing (" + std::to_string(count) + ")\n\n" + list;
}

}  // namespace

std::string render_markdown(const Json& statement, const RenderContext& context) {
    const Json& p = member(statement, "predicate");
    const Matrix m = build_matrix(p);
    std::string out = "# KCS conformance report: " + md(report_title(p)) + "\n\n";
    out += summary_block(p, context);
    out += facts_table(p);
    out += "## Classes × operators\n\n" + matrix_table(p, m);
    out += non_passing(p);
    return out;
}

}  // namespace kcs::reports::render
