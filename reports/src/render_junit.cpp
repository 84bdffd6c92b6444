// The JUnit XML report, so that CI systems list the instances as test
// cases: one <testsuite> per class, one <testcase> per instance. FAIL is a
// <failure>; CRASH, TIMEOUT and ERROR are <error>s; UNSUPPORTED,
// NOT_APPLICABLE and a missing verdict are <skipped/>.
//
// It keeps to what both schemas CI tools check JUnit files against allow
// (Jenkins xunit's junit-10.xsd and Ant's JUnit.xsd;
// reports/tests/check_junit.py writes their rules down): the root carries
// no attributes (Ant allows none), each suite carries package, id,
// hostname and a zone-less timestamp (Ant requires them) and ends with
// <system-out/> and <system-err/>. The adapter is the package, so every
// classname is "ADAPTER.CLASS" and several adapters' files merge without
// duplicate test ids.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "render_common.hpp"

namespace kcs::reports::render {

namespace {

std::string a(std::string_view s) { return escape_xml_attribute(s); }
std::string t(std::string_view s) { return escape_html(s); }

enum class Outcome { passed, failure, error, skipped };

Outcome outcome_of(const std::string& verdict) {
    if (verdict == "PASS") return Outcome::passed;
    if (verdict == "FAIL") return Outcome::failure;
    if (verdict == "CRASH" || verdict == "TIMEOUT" || verdict == "ERROR") return Outcome::error;
    return Outcome::skipped;  // UNSUPPORTED, NOT_APPLICABLE, INCONCLUSIVE, MISSING
}

// Seconds as JUnit's schema wants them: a plain decimal.
std::string seconds(double value) {
    char buffer[48];
    std::snprintf(buffer, sizeof buffer, "%.3f", std::isfinite(value) && value > 0 ? value : 0.0);
    return buffer;
}

// Every case that did not pass: its verdict, message, figure and repro.
std::string evidence_text(const Json& instance) {
    std::string out;
    for (const auto& c : member(instance, "cases")) {
        if (text(c, "verdict") == "PASS") continue;
        out += "seed " + text(c, "seed") + ": " + text(c, "verdict");
        if (!text(c, "violated_class").empty())
            out += " (" + text(c, "violated_class") + ", signature " + text(c, "signature") + ")";
        out += "\n  " + text(c, "message") + "\n";
        if (!figure_text(c).empty()) out += "  " + figure_text(c) + "\n";
        out += "  replay: " + text(c, "repro") + "\n";
    }
    return out;
}

std::string skip_reason(const Json& instance, const std::string& verdict) {
    if (verdict == "MISSING") return "no verdict recorded (the run stopped first)";
    if (verdict == "NOT_APPLICABLE") return "not applicable: " + text(instance, "not_applicable_reason");
    const Json* decider = deciding_case(instance);
    return verdict_label(verdict) + (decider ? ": " + text(*decider, "message") : std::string());
}

// The package: the adapter's name with dots made underscores, since CI
// tools split a classname at its last dot into package and class.
std::string package_of(const Json& predicate) {
    std::string name = adapter_name(predicate);
    std::replace(name.begin(), name.end(), '.', '_');
    return name.empty() ? "adapter" : name;
}

// "2026-12-07T11:19:15": the report's UTC timestamp without its fraction
// and zone, as Ant's schema wants it.
std::string ant_timestamp(const std::string& timestamp) { return timestamp.substr(0, 19); }

std::string testcase(const Json& instance, const std::string& package) {
    const std::string verdict = verdict_of(instance);
    std::string out = "    <testcase classname=\"" + a(package + "." + text(instance, "class")) + "\" name=\"" +
                      a(text(instance, "id")) + "\" time=\"" + seconds(number(member(instance, "wall_s")).value_or(0)) +
                      "\"";
    const Json* decider = deciding_case(instance);
    const std::string message = decider ? text(*decider, "message") : "";
    switch (outcome_of(verdict)) {
        case Outcome::passed:
            return out + "/>\n";
        case Outcome::failure:
            return out + ">\n      <failure message=\"" + a(message) + "\" type=\"" +
                   a(decider ? text(*decider, "signature") : "") + "\">" + t(evidence_text(instance)) +
                   "</failure>\n    </testcase>\n";
        case Outcome::error:
            return out + ">\n      <error message=\"" + a(message) + "\" type=\"" + a(verdict) + "\">" +
                   t(evidence_text(instance)) + "</error>\n    </testcase>\n";
        case Outcome::skipped:
            break;
    }
    return out + ">\n      <skipped message=\"" + a(skip_reason(instance, verdict)) + "\"/>\n    </testcase>\n";
}

struct Suite {
    std::vector<const Json*> instances;
    int failures = 0, errors = 0, skipped = 0;
    double time = 0;
};

std::string counts_attributes(std::size_t tests, int failures, int errors, int skipped, double time) {
    return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) + "\" errors=\"" +
           std::to_string(errors) + "\" skipped=\"" + std::to_string(skipped) + "\" time=\"" + seconds(time) + "\"";
}

}  // namespace

std::string render_junit(const Json& statement, const RenderContext& context) {
    const Json& p = member(statement, "predicate");
    const Matrix m = build_matrix(p);  // its classes give the suites their order
    std::map<std::string, Suite> suites;
    for (const auto& instance : member(p, "instances")) {
        Suite& suite = suites[text(instance, "class")];
        suite.instances.push_back(&instance);
        const auto wall = number(member(instance, "wall_s"));
        if (wall && *wall >= 0) suite.time += *wall;
        switch (outcome_of(verdict_of(instance))) {
            case Outcome::failure:
                ++suite.failures;
                break;
            case Outcome::error:
                ++suite.errors;
                break;
            case Outcome::skipped:
                ++suite.skipped;
                break;
            case Outcome::passed:
                break;
        }
    }
    const std::string package = package_of(p);
    const std::string run = "KCS conformance: " + report_title(p) + " — " +
                            text(member(member(p, "summary"), "profile"), "verdict") + " — " + signature_line(context);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    int id = 0;
    for (const auto& class_id : m.classes) {
        const auto it = suites.find(class_id);
        if (it == suites.end()) continue;
        const Suite& suite = it->second;
        const Json& summary = class_summary(p, class_id);
        out += "  <testsuite name=\"" + a(class_id) + "\" package=\"" + a(package) + "\" id=\"" +
               std::to_string(id++) + "\" hostname=\"localhost\"" +  // reports do not record the host
               counts_attributes(suite.instances.size(), suite.failures, suite.errors, suite.skipped, suite.time) +
               " timestamp=\"" + a(ant_timestamp(text(p, "started"))) + "\">\n    <properties>\n";
        out += "      <property name=\"run\" value=\"" + a(run) + "\"/>\n";
        out += "      <property name=\"title\" value=\"" + a(text(summary, "title")) + "\"/>\n";
        out += "      <property name=\"verdict\" value=\"" + a(text(summary, "verdict")) + "\"/>\n";
        out += "      <property name=\"coverage\" value=\"" + a(percent(member(summary, "coverage"))) + "\"/>\n";
        out += "      <property name=\"pass_rate\" value=\"" + a(percent(member(summary, "pass_rate"))) + "\"/>\n";
        out += "    </properties>\n";
        for (const Json* instance : suite.instances) out += testcase(*instance, package);
        out += "    <system-out/>\n    <system-err/>\n  </testsuite>\n";
    }
    return out + "</testsuites>\n";
}

}  // namespace kcs::reports::render
