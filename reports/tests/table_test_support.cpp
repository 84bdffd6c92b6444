#include "table_test_support.hpp"

#include <map>
#include <stdexcept>

namespace kcs::reports::testing {

namespace {

const std::map<std::string, std::string>& titles() {
    static const std::map<std::string, std::string> titles = {
        {"C-CMP-01", "Approximation accuracy"},
        {"C-CMP-02", "Subnormal handling"},
        {"C-EXC-01", "NaN and Inf propagation"},
        {"C-EXC-02", "Out-of-bounds policy and memory domain"},
        {"C-ORD-01", "Reduction order: bounded path dependence"},
        {"C-ORD-02", "Run-to-run determinism"},
        {"C-PRC-01", "Accumulator preservation"},
        {"C-PRC-03", "Declared compute precision, no silent coercion"},
    };
    return titles;
}

// Each class's tolerance model as the catalog gives it: the evidence cites
// it as a probe's does, and the table reads which way a figure holds from it.
const std::map<std::string, std::string>& models() {
    static const std::map<std::string, std::string> models = {
        {"C-CMP-01", "ulp_table"},       {"C-CMP-02", "subnormal_policy"}, {"C-EXC-01", "ieee_special"},
        {"C-EXC-02", "memory_domain"},   {"C-ORD-01", "order_bound"},      {"C-ORD-02", "distinct_outputs"},
        {"C-PRC-01", "dot_bound"},       {"C-PRC-03", "exact_when_representable"},
    };
    return models;
}

struct Counts {
    std::size_t planned = 0, not_applicable = 0, pass = 0, fail = 0, crash = 0, timeout = 0, error = 0, unsupported = 0,
                missing = 0;
    std::size_t applicable() const { return planned - not_applicable; }
    std::size_t executed() const { return pass + fail + crash + timeout; }

    void add(const MadeInstance& i) {
        ++planned;
        if (!i.applicable || i.verdict == "NOT_APPLICABLE")
            ++not_applicable;
        else if (i.verdict.is_null())
            ++missing;
        else if (i.verdict == "PASS")
            ++pass;
        else if (i.verdict == "FAIL")
            ++fail;
        else if (i.verdict == "CRASH")
            ++crash;
        else if (i.verdict == "TIMEOUT")
            ++timeout;
        else if (i.verdict == "ERROR")
            ++error;
        else if (i.verdict == "UNSUPPORTED")
            ++unsupported;
    }
    std::string judgement() const {
        if (applicable() == 0) return "NOT_APPLICABLE";
        if (fail + crash + timeout > 0) return "NON-CONFORMANT";
        if (error + missing > 0 || executed() == 0) return "INCOMPLETE";
        return "CONFORMANT";
    }
    Json json() const {
        return {{"planned", planned},
                {"applicable", applicable()},
                {"not_applicable", not_applicable},
                {"executed", executed()},
                {"pass", pass},
                {"fail", fail},
                {"crash", crash},
                {"timeout", timeout},
                {"error", error},
                {"unsupported", unsupported},
                {"missing", missing}};
    }
    Json coverage() const { return applicable() ? Json(double(executed()) / double(applicable())) : Json(nullptr); }
    Json pass_rate() const { return executed() ? Json(double(pass) / double(executed())) : Json(nullptr); }
};

Json case_json(const std::string& class_id, const MadeCase& c) {
    const auto model = models().find(class_id);
    return {{"seed", 1},
            {"verdict", c.verdict},
            {"violated_class", ""},
            {"signature", ""},
            {"message", ""},
            {"evidence",
             {{"figure_name", c.figure_name},
              {"figure", c.figure},
              {"bound", c.bound},
              {"worst", nullptr},
              {"details",
               {{"citation",
                 {{"class", class_id},
                  {"model", model == models().end() ? "" : model->second},
                  {"params", Json::object()}}}}}}}};
}

Json instance_json(const MadeInstance& i) {
    Json cases = Json::array();
    for (const auto& c : i.cases) cases.push_back(case_json(i.class_id, c));
    return {{"id", "v1/" + i.class_id + "/" + i.name},
            {"class", i.class_id},
            {"operator", i.name.substr(0, i.name.find('/'))},
            {"applicable", i.applicable},
            {"not_applicable_reason", i.applicable ? "" : "not claimed"},
            {"verdict", i.applicable ? i.verdict : Json("NOT_APPLICABLE")},
            {"cases", cases}};
}

}  // namespace

MadeInstance measured(const std::string& class_id, const std::string& name, const std::string& verdict,
                      const std::string& figure_name, Json figure, Json bound) {
    return {class_id, name, verdict, {{verdict, figure_name, std::move(figure), std::move(bound)}}};
}

Json statement_of(const MadeReport& report) {
    std::map<std::string, Counts> by_class;
    Counts all;
    Json instances = Json::array();
    for (const auto& i : report.instances) {
        by_class[i.class_id].add(i);
        all.add(i);
        instances.push_back(instance_json(i));
    }
    Json classes = Json::array();
    for (const auto& [id, counts] : by_class) {
        const auto title = titles().find(id);
        classes.push_back({{"class", id},
                           {"title", title == titles().end() ? "" : title->second},
                           {"verdict", counts.judgement()},
                           {"counts", counts.json()},
                           {"coverage", counts.coverage()},
                           {"pass_rate", counts.pass_rate()}});
    }
    const std::string profile_verdict = all.judgement() == "NOT_APPLICABLE" ? "INCOMPLETE" : all.judgement();
    Json predicate = {
        {"state", "finished"},
        {"spec", {{"version", report.spec_version}, {"digest", report.spec_digest}, {"catalog", "spec/v1"}}},
        {"profile", {{"id", "core"}, {"title", "Core conformance"}}},
        {"depth", {{"id", report.depth}, {"seeds", 2}, {"certifiable", false}}},
        {"operators", report.operators},
        {"filter", {{"include", report.include}, {"exclude", Json::array()}}},
        {"started", report.started},
        {"adapter",
         {{"argument", report.adapter.name},
          {"library", "/lib/adapter.so"},
          {"options", report.adapter.options},
          {"info",
           {{"adapter_name", report.adapter.name},
            {"adapter_version", "0.1.0"},
            {"vendor", report.adapter.vendor},
            {"device", report.adapter.device},
            {"driver_version", report.driver_version},
            {"notes", ""}}},
          {"info_error", nullptr}}},
        {"instances", instances},
        {"summary",
         {{"classes", classes},
          {"profile",
           {{"id", "core"},
            {"verdict", profile_verdict},
            {"counts", all.json()},
            {"coverage", all.coverage()},
            {"pass_rate", all.pass_rate()}}}}}};
    return {{"_type", kStatementType},
            {"predicateType", kPredicateType},
            {"subject", Json::array()},
            {"predicate", predicate}};
}

TableEntry entry_of(const MadeReport& report, const std::string& source, Admission admission) {
    return {source, statement_of(report), admission,
            admission == Admission::verified ? "test key (keyid 0123abcd)" : ""};
}

std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> records(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        std::string& field = records.back().back();
        if (quoted) {
            if (c != '"')
                field += c;
            else if (i + 1 < text.size() && text[i + 1] == '"')
                field += text[++i];
            else
                quoted = false;
        } else if (c == '"') {
            if (!field.empty()) throw std::runtime_error("CSV: a quote inside an unquoted field");
            quoted = true;
        } else if (c == ',') {
            records.back().emplace_back();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            ++i;
            records.emplace_back(1);
        } else if (c == '\r' || c == '\n') {
            throw std::runtime_error("CSV: a bare line break outside quotes (records end with CRLF)");
        } else {
            field += c;
        }
    }
    if (quoted) throw std::runtime_error("CSV: an unterminated quoted field");
    if (records.back() == std::vector<std::string>(1)) records.pop_back();  // after the last CRLF
    return records;
}

}  // namespace kcs::reports::testing
