// The HTML report: one self-contained page that reads offline. Styles are
// inline, pictures are inline SVG, there is no script and nothing is
// fetched (a Content-Security-Policy forbids it, should escaping ever
// fail); the only links are to anchors within the page.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "evidence_charts.hpp"
#include "render_common.hpp"

namespace kcs::reports::render {

namespace {

constexpr const char* kStyle = R"css(
body { font-family: system-ui, "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1a1a1a;
       background: #ffffff; margin: 0 auto; max-width: 1880px; padding: 16px 24px 48px; line-height: 1.4; }
h1 { font-size: 22px; margin: 8px 0 14px; }
h2 { font-size: 19px; margin: 28px 0 10px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 16px; margin: 22px 0 8px; }
code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 12.5px; }
code.repro { display: block; white-space: pre-wrap; word-break: break-all; background: #f4f4f4;
             border: 1px solid #e2e2e2; border-radius: 4px; padding: 4px 6px; margin: 4px 0; }
.banner { border: 2px solid #888; border-radius: 8px; padding: 14px 20px; margin: 0 0 18px; background: #f7f7f7; }
.banner.j-conformant { background: #e7f5ea; border-color: #1e7e34; }
.banner.j-non-conformant { background: #fdecee; border-color: #b00020; }
.banner.j-incomplete { background: #fff5e6; border-color: #b26a00; }
.banner .profile-verdict { font-size: 30px; font-weight: 700; letter-spacing: 0.5px; margin: 0; }
.banner .profile { margin: 2px 0 10px; color: #333; }
.banner .numbers { font-size: 17px; margin: 6px 0; }
.banner .numbers span { display: inline-block; margin-right: 28px; }
.banner .counts { color: #444; margin: 4px 0; }
.banner .signature, .banner .certificate, .banner .state { margin: 6px 0; font-weight: 600; }
.signature.unsigned, .signature.not-checked, .certificate.refused, .state.unfinished { color: #8a1c1c; }
.signature.verified, .certificate.granted { color: #1e6b30; }
.banner ul { margin: 4px 0 4px 20px; padding: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 3px 16px; margin: 0; }
dl.facts dt { font-weight: 600; color: #444; }
dl.facts dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d0d0; padding: 5px 8px; text-align: left; vertical-align: top; }
thead th { background: #f0f0f0; }
/* The matrix fits 1280 px and wider: every column shares the width (fixed layout); a figure wraps
   inside its cell, never widening it; a narrower window scrolls the matrix alone. */
.matrix-wrap { overflow-x: auto; }
table.matrix { width: 100%; table-layout: fixed; font-size: 12px; }
table.matrix th, table.matrix td { padding: 4px 4px; overflow-wrap: break-word; }
table.matrix col.class { width: 10em; }
table.matrix col.class-verdict { width: 9.5em; }
table.matrix td.cell { text-align: center; font-size: 11px; padding: 4px 2px; }
table.matrix td.cell a { color: inherit; text-decoration: none; display: block; }
table.matrix td.cell a:hover .verdicts { text-decoration: underline; }
table.matrix .figure { display: block; font-size: 10.5px; opacity: 0.85; }
table.matrix .rest { display: block; font-size: 10.5px; }
table.matrix th .title { display: block; font-weight: 400; font-size: 11px; color: #555; }
ul.not-passed { list-style: none; padding: 0; margin: 6px 0; }
ul.not-passed li { margin: 3px 0; }
ul.not-passed .fig { color: #555; font-size: 12.5px; margin-left: 8px; }
section.instances > span.filters { display: block; margin: 8px 0 2px; font-weight: 600; font-size: 13px; }
section.instances > input { margin: 0 2px 0 10px; }
section.instances > label { font-size: 13px; }
section.instances > .list { margin-top: 10px; }
td.cell.empty { background: #fafafa; color: #a0a0a0; }
.v-pass { background: #d7efdc; color: #14532d; }
.v-fail { background: #f9d3d7; color: #7f1d1d; }
.v-crash { background: #f6c58f; color: #6b2c00; }
.v-timeout, .v-error { background: #ffe3b8; color: #7a3e00; }
.v-missing, .v-inconclusive { background: #fff1c2; color: #6c4a00; }
.v-unsupported, .v-not-applicable { background: #eceff1; color: #455a64; }
.j-conformant { background: #d7efdc; color: #14532d; }
.j-non-conformant { background: #f9d3d7; color: #7f1d1d; }
.j-incomplete { background: #fff1c2; color: #6c4a00; }
.j-not-applicable { background: #eceff1; color: #455a64; }
.badge { display: inline-block; border-radius: 4px; padding: 0 6px; font-weight: 700; font-size: 12px; }
.legend span { display: inline-block; margin: 2px 8px 2px 0; padding: 1px 8px; border-radius: 4px; font-size: 12px; }
.pictures .charts { display: flex; flex-wrap: wrap; gap: 16px; }
svg.chart { border: 1px solid #e0e0e0; border-radius: 4px; max-width: 100%; height: auto; }
details.instance { border: 1px solid #ddd; border-left: 6px solid #ccc; border-radius: 4px; margin: 4px 0;
                   background: #ffffff; color: #1a1a1a; }
details.instance.v-pass { border-left-color: #2e8b57; }
details.instance.v-fail { border-left-color: #c62828; }
details.instance.v-crash, details.instance.v-timeout, details.instance.v-error { border-left-color: #e67e00; }
details.instance.v-missing { border-left-color: #c9a000; }
details.instance.v-unsupported, details.instance.v-not-applicable { border-left-color: #90a4ae; }
details.instance summary { cursor: pointer; padding: 5px 8px; }
details.instance summary .fig { color: #555; font-size: 12.5px; margin-left: 8px; }
details.instance .body { padding: 4px 12px 12px; }
table.cases { font-size: 12.5px; margin-top: 8px; width: 100%; }
table.cases td.message { word-break: break-word; }
.worst { font-size: 12.5px; }
footer { margin-top: 36px; color: #666; font-size: 12px; }
)css";

std::string e(std::string_view s) { return escape_html(s); }

std::string element(const std::string& tag, const std::string& css_class, const std::string& content_escaped) {
    return "<" + tag + (css_class.empty() ? "" : " class=\"" + e(css_class) + "\"") + ">" + content_escaped + "</" +
           tag + ">";
}

// Where an instance's details are: "#instance:v1/C-ACC-01/softmax/f32-f32/default".
std::string instance_anchor(const Json& instance) { return "instance:" + text(instance, "id"); }

bool passed_or_skipped(const std::string& verdict) {
    return verdict == "PASS" || verdict == "UNSUPPORTED" || verdict == "NOT_APPLICABLE";
}

// The instances, the most severe verdict first (stable: report order within a verdict).
void most_severe_first(std::vector<const Json*>& instances) {
    std::stable_sort(instances.begin(), instances.end(), [](const Json* a, const Json* b) {
        return verdict_severity(verdict_of(*a)) > verdict_severity(verdict_of(*b));
    });
}

std::string counts_line(const Json& counts) {
    std::string out;
    const auto add = [&](const char* key, const char* label) {
        out += (out.empty() ? "" : " · ") + text(counts, key) + " " + label;
    };
    add("planned", "planned");
    add("applicable", "applicable");
    add("executed", "executed");
    add("pass", "PASS");
    add("fail", "FAIL");
    add("crash", "CRASH");
    add("timeout", "TIMEOUT");
    add("error", "ERROR");
    add("unsupported", "UNSUPPORTED");
    if (counts.contains("inconclusive")) add("inconclusive", "INCONCLUSIVE");
    add("not_applicable", "N/A");
    add("missing", "missing");
    return out;
}

std::string list_of(const Json& strings) {
    std::string out;
    for (const auto& s : strings) out += "<li>" + e(s.is_string() ? s.get<std::string>() : s.dump()) + "</li>";
    return out.empty() ? "" : "<ul>" + out + "</ul>";
}

std::string banner(const Json& p, const RenderContext& context) {
    const Json& summary = member(p, "summary");
    const Json& profile = member(summary, "profile");
    const Json& counts = member(profile, "counts");
    const Json& certificate = member(summary, "certificate");
    const std::string verdict = text(profile, "verdict");
    std::string out = "<header class=\"banner " + e(judgement_css(verdict)) + "\" id=\"banner\">\n";
    out += "<p class=\"profile-verdict\">" + e(verdict.empty() ? "NO VERDICT" : verdict) + "</p>\n";
    out += "<p class=\"profile\">profile <strong>" + e(text(profile, "id")) + "</strong> — " +
           e(text(member(p, "profile"), "title")) + "; adapter <strong>" + e(text(member(p, "adapter"), "argument")) +
           "</strong>";
    const Json& info = member(member(p, "adapter"), "info");
    if (info.is_object()) out += " on " + e(text(info, "vendor") + " " + text(info, "device"));
    out +=
        "; depth " + e(text(member(p, "depth"), "id")) + "; spec v" + e(text(member(p, "spec"), "version")) + "</p>\n";
    out += "<p class=\"numbers\"><span class=\"coverage\">coverage <strong>" + e(percent(member(profile, "coverage"))) +
           "</strong> (executed / applicable: " + e(text(counts, "executed")) + " / " + e(text(counts, "applicable")) +
           ")</span><span class=\"pass-rate\">pass rate <strong>" + e(percent(member(profile, "pass_rate"))) +
           "</strong> (PASS / executed: " + e(text(counts, "pass")) + " / " + e(text(counts, "executed")) +
           ")</span></p>\n";
    out += "<p class=\"counts\">" + e(counts_line(counts)) + "</p>\n";
    const char* signature_class = context.signature == SignatureStatus::verified      ? "verified"
                                  : context.signature == SignatureStatus::not_checked ? "not-checked"
                                                                                      : "unsigned";
    out += "<p class=\"signature " + std::string(signature_class) + "\">" + e(signature_line(context)) + "</p>\n";
    if (member(p, "complete") != true)
        out += "<p class=\"state unfinished\">The run did not finish (state " + e(text(p, "state")) +
               "): instances without a verdict count as missing, never as passes.</p>\n";
    if (member(certificate, "granted") == true)
        out += "<p class=\"certificate granted\">Certificate granted" +
               std::string(context.signature == SignatureStatus::verified
                               ? ""
                               : " by the report itself (its signature is not verified here)") +
               "</p>\n";
    else
        out +=
            "<p class=\"certificate refused\">Not a certificate:</p>" + list_of(member(certificate, "reasons")) + "\n";
    if (!member(profile, "reasons").empty())
        out += "<p>Why the profile is " + e(verdict) + ":</p>" + list_of(member(profile, "reasons")) + "\n";
    for (const auto& rejected : member(profile, "rejected_claims"))
        out += "<p>The profile does not accept the claim " + e(text(rejected, "id")) + ": " +
               e(text(rejected, "value")) + " (it accepts " + e(joined(member(rejected, "accepted"), ", ")) + ")</p>\n";
    return out + "</header>\n";
}

std::string facts_section(const Json& statement, const Json& p) {
    std::string out = "<section class=\"run\">\n<h2>Run</h2>\n<dl class=\"facts\">\n";
    for (const auto& [label, value] : header_facts(p)) out += "<dt>" + e(label) + "</dt><dd>" + e(value) + "</dd>\n";
    out += "</dl>\n";
    if (!member(statement, "subject").empty()) {
        out +=
            "<h3>Subjects</h3>\n<table class=\"subjects\"><thead><tr><th>role</th><th>name</th><th>sha256</th>"
            "<th>path</th></tr></thead><tbody>\n";
        for (const auto& s : member(statement, "subject"))
            out += "<tr><td>" + e(text(member(s, "annotations"), "role")) + "</td><td>" + e(text(s, "name")) +
                   "</td><td><code>" + e(text(member(s, "digest"), "sha256")) + "</code></td><td>" +
                   e(text(member(s, "annotations"), "path")) + "</td></tr>\n";
        out += "</tbody></table>\n";
    }
    const Json& time = member(member(p, "summary"), "time");
    if (time.is_object())
        out += "<p>Time: " + e(number_text(member(time, "total_s"))) + " s in all, " +
               e(number_text(member(time, "case_time_s"))) + " s in cases" +
               (member(time, "adapter_s").is_number()
                    ? " (" + e(number_text(member(time, "adapter_s"))) + " s inside the adapter)"
                    : std::string()) +
               ".</p>\n";
    return out + "</section>\n";
}

std::string legend() {
    std::string out = "<p class=\"legend\">";
    for (const char* v : {"PASS", "FAIL", "CRASH", "TIMEOUT", "ERROR", "INCONCLUSIVE", "MISSING", "UNSUPPORTED", "NOT_APPLICABLE"})
        out += "<span class=\"" + verdict_css(v) + "\">" + e(verdict_label(v)) + "</span>";
    return out +
           " A cell shows its instances' verdicts (\"5/5 PASS\", or the worst first: \"FAIL 2/5\") and the "
           "figure that came closest to its bound; — : no instance of that class for that operator.</p>\n";
}

std::string matrix_section(const Json& p, const Matrix& m) {
    std::string out = "<section class=\"matrix\">\n<h2>Classes × operators</h2>\n" + legend();
    out += "<div class=\"matrix-wrap\"><table class=\"matrix\" id=\"matrix\">\n<colgroup><col class=\"class\">"
           "<col class=\"class-verdict\">";
    for (std::size_t i = 0; i < m.operators.size(); ++i) out += "<col>";
    out += "</colgroup>\n<thead><tr><th>class</th><th>class verdict</th>";
    // A long operator name breaks after '_' or '.', not inside a word.
    for (const auto& op : m.operators) {
        std::string name = e(op);
        for (std::size_t at = name.find_first_of("_."); at != std::string::npos; at = name.find_first_of("_.", at + 6))
            name.insert(at + 1, "<wbr>");
        out += "<th class=\"operator\">" + name + "</th>";
    }
    out += "</tr></thead>\n<tbody>\n";
    for (const auto& class_id : m.classes) {
        const Json& summary = class_summary(p, class_id);
        const std::string judgement = text(summary, "verdict");
        out += "<tr><th scope=\"row\"><a href=\"#class-" + e(class_id) + "\">" + e(class_id) + "</a>" +
               element("span", "title", e(text(summary, "title"))) + "</th>";
        out += "<td class=\"class-verdict " + e(judgement_css(judgement)) + "\">" + e(judgement) +
               element("span", "figure",
                       "coverage " + e(percent(member(summary, "coverage"))) + " · pass rate " +
                           e(percent(member(summary, "pass_rate")))) +
               "</td>";
        for (const auto& op : m.operators) {
            const Cell* cell = m.cell(class_id, op);
            if (!cell) {
                out += "<td class=\"cell empty\" title=\"no instance\">—</td>";
                continue;
            }
            // The cell links to its first instance of the worst verdict.
            const auto first_worst = std::find_if(cell->instances.begin(), cell->instances.end(),
                                                  [&](const Json* i) { return verdict_of(*i) == cell->worst; });
            out += "<td class=\"cell " + e(verdict_css(cell->worst)) + "\" title=\"" + e(cell->key_figure_title) +
                   "\"><a href=\"#" + e(instance_anchor(**first_worst)) + "\"><span class=\"verdicts\">" +
                   e(cell_label(*cell)) + "</span>";
            if (!cell_rest(*cell).empty()) out += element("span", "rest", e(cell_rest(*cell)));
            if (!cell->key_figure.empty()) out += element("span", "figure", e(cell->key_figure));
            out += "</a></td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody></table></div>\n</section>\n";
}

// Failures first: every instance that did not pass (or was not judged), the
// most severe first, each linking to its details.
std::string not_passed_section(const Json& p) {
    std::vector<const Json*> listed;
    for (const auto& instance : member(p, "instances"))
        if (!passed_or_skipped(verdict_of(instance))) listed.push_back(&instance);
    if (listed.empty()) return "";
    most_severe_first(listed);
    std::string out = "<section class=\"not-passed\" id=\"not-passed\">\n<h2>Did not pass (" +
                      std::to_string(listed.size()) + ")</h2>\n<ul class=\"not-passed\">\n";
    for (const Json* instance : listed) {
        const std::string verdict = verdict_of(*instance);
        const Json* decider = deciding_case(*instance);
        out += "<li><span class=\"badge " + e(verdict_css(verdict)) + "\">" + e(verdict_label(verdict)) +
               "</span> <a href=\"#" + e(instance_anchor(*instance)) + "\"><code>" + e(text(*instance, "id")) +
               "</code></a>";
        if (decider && !figure_text(*decider).empty()) out += "<span class=\"fig\">" + e(figure_text(*decider)) + "</span>";
        out += "</li>\n";
    }
    return out + "</ul>\n</section>\n";
}

std::string pictures_section(const Json& p, const Matrix& m) {
    std::string body;
    for (const auto& class_id : m.classes) {
        if (!has_pictures(class_id)) continue;
        const auto charts = class_charts(p, class_id);
        if (charts.empty()) continue;
        body += "<h3>" + e(class_id) + " — " + e(text(class_summary(p, class_id), "title")) +
                "</h3>\n<div class=\"charts\">\n";
        for (const auto& chart : charts) body += chart;
        body += "</div>\n";
    }
    if (body.empty()) return "";
    return "<section class=\"pictures\" id=\"pictures\">\n<h2>Pictures</h2>\n<p>Drawn from the numbers the probes "
           "recorded; each "
           "instance's own picture is in its details below.</p>\n" +
           body + "</section>\n";
}

std::string worst_element(const Json& case_json) {
    const Json& worst = member(member(case_json, "evidence"), "worst");
    if (!worst.is_object()) return "";
    std::string inputs;
    std::size_t shown = 0;
    const Json& all_inputs = member(worst, "inputs");
    for (const auto& input : all_inputs) {
        if (shown == 8) break;
        inputs += (shown++ ? ", " : "") + (input.is_string() ? input.get<std::string>() : input.dump());
    }
    if (all_inputs.is_array() && all_inputs.size() > shown)
        inputs += " … and " + std::to_string(all_inputs.size() - shown) + " more";
    const std::string unmeasured = unmeasured_error_text(number(member(worst, "error")).value_or(-1),
                                                         number(member(worst, "bound")).value_or(-1));
    const std::string error_text = unmeasured.empty() ? "error " + number_text(member(worst, "error")) +
                                                            " against bound " + number_text(member(worst, "bound"))
                                                      : unmeasured;
    return "<p class=\"worst\"><strong>Worst element</strong> (seed " + e(text(case_json, "seed")) + "): index " +
           e(text(worst, "index")) + "; expected " + e(number_text(member(worst, "expected"))) + " (<code>" +
           e(text(worst, "expected_hex")) + "</code>), got " + e(number_text(member(worst, "got"))) + " (<code>" +
           e(text(worst, "got_bits")) + "</code>); " + e(error_text) + "; inputs " + e(inputs) + "</p>\n";
}

std::string cases_table(const Json& instance) {
    const Json& cases = member(instance, "cases");
    if (cases.empty()) return "<p>No case ran.</p>\n";
    std::string out =
        "<table class=\"cases\"><thead><tr><th>seed</th><th>verdict</th><th>figure</th><th>bound</th>"
        "<th>signature</th><th>message</th></tr></thead><tbody>\n";
    for (const auto& c : cases) {
        const std::string verdict = text(c, "verdict");
        std::string signature = text(c, "signature");
        if (!text(c, "violated_class").empty()) signature = text(c, "violated_class") + ": " + signature;
        out += "<tr><td>" + e(text(c, "seed")) + "</td><td class=\"" + e(verdict_css(verdict)) + "\">" +
               e(verdict_label(verdict)) + "</td><td>" + e(number_text(member(member(c, "evidence"), "figure"))) +
               "</td><td>" + e(number_text(member(member(c, "evidence"), "bound"))) + "</td><td>" + e(signature) +
               "</td><td class=\"message\">" + e(text(c, "message")) + "<code class=\"repro\">" + e(text(c, "repro")) +
               "</code></td></tr>\n";
    }
    return out + "</tbody></table>\n";
}

std::string config_text(const Json& config) {
    std::string out = text(config, "id");
    if (member(config, "inputs").is_array())
        out += " (inputs " + joined(member(config, "inputs"), ", ") + " → output " + text(config, "output");
    if (!text(config, "accumulate").empty()) out += ", accumulate " + text(config, "accumulate");
    if (member(config, "inputs").is_array()) out += ")";
    return out;
}

std::string instance_details(const Json& instance) {
    const std::string verdict = verdict_of(instance);
    const Json* decider = deciding_case(instance);
    std::string out = "<details class=\"instance " + e(verdict_css(verdict)) + "\" id=\"" + e(instance_anchor(instance)) +
                      "\">\n<summary><span class=\"badge " + e(verdict_css(verdict)) + "\">" +
                      e(verdict_label(verdict)) + "</span> <code class=\"id\">" + e(text(instance, "id")) + "</code>";
    if (decider && !figure_text(*decider).empty()) out += "<span class=\"fig\">" + e(figure_text(*decider)) + "</span>";
    out += "</summary>\n<div class=\"body\">\n";
    out += "<p class=\"measures\">" + e(text(instance, "measures")) + "</p>\n<dl class=\"facts\">\n";
    const auto fact = [&](const std::string& label, const std::string& value) {
        if (!value.empty()) out += "<dt>" + e(label) + "</dt><dd>" + e(value) + "</dd>\n";
    };
    fact("operator", text(instance, "operator") +
                         (text(instance, "function").empty() ? "" : " (function " + text(instance, "function") + ")"));
    fact("config", config_text(member(instance, "config")));
    fact("variant", text(instance, "variant"));
    const Json& parameters = member(instance, "parameters");
    if (!parameters.empty()) fact("parameters", parameters.dump(-1, ' ', false, Json::error_handler_t::replace));
    fact("requirement", text(instance, "requirement"));
    if (member(instance, "applicable") == false) fact("not applicable", text(instance, "not_applicable_reason"));
    if (const Json& cause = member(instance, "consequence_of"); cause.is_object())
        fact("consequence of", text(cause, "instance") + ": " + text(cause, "reason"));
    fact("time", number_text(member(instance, "wall_s")) + " s" +
                     (member(instance, "adapter_s").is_number()
                          ? ", " + number_text(member(instance, "adapter_s")) + " s inside the adapter"
                          : std::string()));
    out += "</dl>\n";
    if (!text(instance, "repro").empty())
        out += "<p>Replay the case that decided the verdict:</p><code class=\"repro\">" + e(text(instance, "repro")) +
               "</code>\n";
    if (decider) out += worst_element(*decider);
    out += instance_chart(instance);
    out += cases_table(instance);
    return out + "</div>\n</details>\n";
}

// Radio buttons and the CSS that acts on them filter the instances by
// verdict and by class, with no script (the page runs none): a checked
// button hides, through the sibling selector, what does not match it; so
// the inputs are children of the section, as .list is.
std::string filters(const Json& p, const Matrix& m, std::string& css) {
    std::set<std::string> verdicts;
    for (const auto& instance : member(p, "instances")) verdicts.insert(verdict_of(instance));
    std::string out = "<span class=\"filters\">Show:</span>"
                      "<input type=\"radio\" name=\"verdict\" id=\"show-all\" checked>"
                      "<label for=\"show-all\">every verdict</label>"
                      "<input type=\"radio\" name=\"verdict\" id=\"show-not-passed\">"
                      "<label for=\"show-not-passed\">did not pass</label>";
    css += "#show-not-passed:checked ~ .list details.instance:is(.v-pass, .v-unsupported, .v-not-applicable) "
           "{ display: none; }\n";
    for (const auto& verdict : verdicts) {
        const std::string word = verdict_css(verdict);  // "v-fail": made by kcs, safe in CSS
        out += "<input type=\"radio\" name=\"verdict\" id=\"show-" + word + "\"><label for=\"show-" + word + "\">" +
               e(verdict_label(verdict)) + "</label>";
        css += "#show-" + word + ":checked ~ .list details.instance:not(." + word + ") { display: none; }\n";
    }
    out += "<span class=\"filters\">Class:</span><input type=\"radio\" name=\"class\" id=\"class-all\" checked>"
           "<label for=\"class-all\">every class</label>";
    for (const auto& class_id : m.classes) {
        const std::string word = class_css(class_id);  // letters, digits and '-' alone: safe in CSS
        out += "<input type=\"radio\" name=\"class\" id=\"only-" + word + "\"><label for=\"only-" + word + "\">" +
               e(class_id) + "</label>";
        css += "#only-" + word + ":checked ~ .list > .class-block:not(." + word + ") { display: none; }\n";
    }
    return out + "\n";
}

std::string instances_section(const Json& p, const Matrix& m) {
    std::string css;
    const std::string controls = filters(p, m, css);
    // The inputs must precede .list as its siblings for the CSS to reach it.
    std::string out = "<section class=\"instances\">\n<h2>Instances</h2>\n<style>" + css + "</style>\n" + controls;
    out += "<div class=\"list\">\n";
    for (const auto& class_id : m.classes) {
        const Json& summary = class_summary(p, class_id);
        const std::string judgement = text(summary, "verdict");
        out += "<div class=\"class-block " + e(class_css(class_id)) + "\">\n<h3 id=\"class-" + e(class_id) + "\">" +
               e(class_id) + " — " + e(text(summary, "title")) + " <span class=\"badge " + e(judgement_css(judgement)) +
               "\">" + e(judgement) + "</span></h3>\n";
        if (summary.is_object())
            out += "<p>" + e(text(summary, "requirement")) + "; coverage " + e(percent(member(summary, "coverage"))) +
                   ", pass rate " + e(percent(member(summary, "pass_rate"))) + "; " +
                   e(counts_line(member(summary, "counts"))) + "</p>\n" + list_of(member(summary, "reasons"));
        // Failures first within the class, the most severe first.
        std::vector<const Json*> instances;
        for (const auto& instance : member(p, "instances"))
            if (text(instance, "class") == class_id) instances.push_back(&instance);
        most_severe_first(instances);
        for (const Json* instance : instances) out += instance_details(*instance);
        out += "</div>\n";
    }
    return out + "</div>\n</section>\n";
}

}  // namespace

std::string render_html(const Json& statement, const RenderContext& context) {
    const Json& p = member(statement, "predicate");
    const Matrix m = build_matrix(p);
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>KCS report: " +
        e(report_title(p)) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
    out += "<h1>KCS conformance report: " + e(report_title(p)) + "</h1>\n";
    out += banner(p, context);
    out += not_passed_section(p);
    out += matrix_section(p, m);
    out += pictures_section(p, m);
    out += facts_section(statement, p);
    out += instances_section(p, m);
    out += "<footer>Rendered by <code>kcs render</code>" +
           (context.source.empty() ? std::string() : " from " + e(context.source)) +
           ". One self-contained page: no script, nothing fetched.</footer>\n</body>\n</html>\n";
    return out;
}

}  // namespace kcs::reports::render
