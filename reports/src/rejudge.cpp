// Re-judging a report from its own evidence (verify.hpp): a verifier need
// not trust the verdicts a Statement records, only the catalog. Every case
// verdict of its own class must follow from its figure and bound in the
// direction of the class's tolerance model (a PASS within, a FAIL beyond),
// a PASS must show something judged on at least one adapter call,
// and a FAIL must name a signature the catalog lists; every
// tolerance the evidence cites must be the catalog's, parameters included;
// every instance verdict must follow from its cases; the summary's counts
// and verdicts must follow from the instance verdicts.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "verify_checks.hpp"

namespace kcs::reports::detail {

namespace {

// A figure or bound as the report writes it: a number, or "inf", "-inf", "nan".
std::optional<double> number_of(const Json& value) {
    if (value.is_number()) return value.get<double>();
    if (!value.is_string()) return std::nullopt;
    const std::string text = value.get<std::string>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

// exact_when_representable's figure is the effective precision, which
// must reach its bound; every other model's figure must stay within it.
bool within(const std::string& model, double figure, double bound) {
    return model == "exact_when_representable" ? figure >= bound : figure <= bound;
}

// SPEC.md section 5: a PASS judged at least one element (or store, or run)
// on at least one adapter call.
bool judged_something(const Json& evidence) {
    const Json judged = evidence.value("judged", Json::object());
    const Json count = judged.is_object() ? judged.value("count", Json(nullptr)) : Json(nullptr);
    const Json calls = evidence.value("adapter_calls", Json(nullptr));
    return count.is_number_unsigned() && count.get<std::uint64_t>() >= 1 && calls.is_number_unsigned() &&
           calls.get<std::uint64_t>() >= 1;
}

// Every object of the form {class, model, params} in the evidence: the
// tolerances it cites.
void cited_tolerances(const Json& node, std::vector<const Json*>& out) {
    if (node.is_object()) {
        if (node.size() == 3 && node.contains("class") && node.contains("model") && node.contains("params"))
            out.push_back(&node);
        for (const auto& [key, child] : node.items()) cited_tolerances(child, out);
    } else if (node.is_array()) {
        for (const auto& child : node) cited_tolerances(child, out);
    }
}

class Rejudge {
public:
    Rejudge(const spec::Catalog& catalog, Verification& v) : catalog_(catalog), v_(v) {}

    void instance(const Json& inst) {
        const std::string id = inst.value("id", "?");
        const std::string class_id = inst.value("class", "");
        const spec::ContractClass* cls = catalog_.find_class(class_id);
        if (!cls) return fail(id + ": class " + class_id + " is not in the catalog");
        const Json cases = inst.value("cases", Json::array());
        bool any_fail = false, all_pass = !cases.empty();
        std::vector<std::string> case_verdicts;
        for (const auto& c : cases) {
            judge_case(id, *cls, c);
            const std::string verdict = c.value("verdict", "");
            case_verdicts.push_back(verdict);
            any_fail = any_fail || verdict == "FAIL";
            all_pass = all_pass && verdict == "PASS";
        }
        const Json recorded = inst.value("verdict", Json(nullptr));
        if (!recorded.is_string() || cases.empty()) return;
        const std::string verdict = recorded.get<std::string>();
        if (verdict == "PASS" && !all_pass) fail(id + ": recorded PASS, but not every case passed");
        if (any_fail && verdict != "FAIL") fail(id + ": a case FAILed, but the instance is recorded " + verdict);
        if (std::find(case_verdicts.begin(), case_verdicts.end(), verdict) == case_verdicts.end())
            fail(id + ": recorded " + verdict + ", which none of its cases gave");
        ++judged_;
    }

    std::size_t judged() const { return judged_; }
    std::size_t cases() const { return cases_; }

private:
    void fail(const std::string& what) {
        if (++failures_ <= kShown) v_.failures.push_back("verdicts: " + what);
        else if (failures_ == kShown + 1) v_.failures.push_back("verdicts: ... and more (only the first are listed)");
    }

    void judge_case(const std::string& id, const spec::ContractClass& cls, const Json& c) {
        const std::string where = id + " seed " + (c.contains("seed") ? c["seed"].dump() : "?");
        const std::string verdict = c.value("verdict", "");
        const Json evidence = c.value("evidence", Json(nullptr));
        if (verdict != "PASS" && verdict != "FAIL") return;  // no evidence to weigh
        ++cases_;
        if (evidence.is_object()) check_citations(where, evidence);
        const std::string violated = c.value("violated_class", ""), signature = c.value("signature", "");
        if (verdict == "PASS" && (!violated.empty() || !signature.empty()))
            return fail(where + ": PASS with a violation recorded (" + violated + " " + signature + ")");
        if (verdict == "FAIL") {
            const spec::ContractClass* violated_class = catalog_.find_class(violated);
            if (!violated_class) return fail(where + ": FAIL of class '" + violated + "', which the catalog lacks");
            // SPEC.md section 5: a failure that matches none of the class's signatures is "unmatched".
            if (signature != "unmatched" && !violated_class->signature(signature))
                return fail(where + ": FAIL with signature '" + signature + "', which " + violated +
                            " does not list");
            if (violated != cls.id) return;  // a breach of the integrity protocol: its own evidence
        }
        if (!evidence.is_object()) return fail(where + ": " + verdict + " without evidence");
        if (verdict == "PASS" && !judged_something(evidence))
            return fail(where + ": PASS, but its evidence shows nothing judged (judged " +
                        evidence.value("judged", Json(nullptr)).dump() + ", adapter_calls " +
                        evidence.value("adapter_calls", Json(nullptr)).dump() + ")");
        const auto figure = number_of(evidence.value("figure", Json(nullptr)));
        const auto bound = number_of(evidence.value("bound", Json(nullptr)));
        if (!figure || !bound) return;  // a verdict reached without one figure (the evidence details say how)
        const bool holds = !std::isnan(*figure) && within(cls.tolerance.model, *figure, *bound);
        if (verdict == "PASS" && !holds)
            fail(where + ": PASS, but its figure " + evidence["figure"].dump() + " breaks its bound " +
                 evidence["bound"].dump() + " (" + cls.tolerance.model + ")");
        if (verdict == "FAIL" && holds)
            fail(where + ": FAIL, but its figure " + evidence["figure"].dump() + " keeps within its bound " +
                 evidence["bound"].dump() + " (" + cls.tolerance.model + ")");
    }

    void check_citations(const std::string& where, const Json& evidence) {
        std::vector<const Json*> cited;
        cited_tolerances(evidence, cited);
        for (const Json* t : cited) {
            const std::string class_id = (*t)["class"].is_string() ? (*t)["class"].get<std::string>() : "";
            const spec::ContractClass* cls = catalog_.find_class(class_id);
            if (!cls) {
                fail(where + ": cites the tolerance of class '" + class_id + "', which the catalog lacks");
                continue;
            }
            if ((*t)["model"] != cls->tolerance.model || (*t)["params"] != cls->tolerance.params)
                fail(where + ": cites " + class_id + "'s tolerance as " + (*t)["model"].dump() + " " +
                     (*t)["params"].dump() + "; the catalog says " + cls->tolerance.model + " " +
                     cls->tolerance.params.dump());
        }
    }

    static constexpr std::size_t kShown = 10;
    const spec::Catalog& catalog_;
    Verification& v_;
    std::size_t failures_ = 0, judged_ = 0, cases_ = 0;
};

struct Counts {
    std::map<std::string, std::size_t> by_verdict;  // PASS, FAIL, ..., "missing"
    std::size_t planned = 0;

    void add(const Json& verdict) {
        ++planned;
        ++by_verdict[verdict.is_string() ? verdict.get<std::string>() : "missing"];
    }
    std::size_t n(const char* verdict) const {
        const auto it = by_verdict.find(verdict);
        return it == by_verdict.end() ? 0 : it->second;
    }
    std::size_t executed() const { return n("PASS") + n("FAIL") + n("CRASH") + n("TIMEOUT"); }
};

// The recorded counts and verdict of a class or the profile against those
// the instance verdicts give.
void check_group(const std::string& name, const Json& recorded, const Counts& counts, bool finished,
                 std::vector<std::string>& problems) {
    const Json rc = recorded.value("counts", Json::object());
    const std::pair<const char*, std::size_t> expected[] = {
        {"planned", counts.planned},          {"not_applicable", counts.n("NOT_APPLICABLE")},
        {"pass", counts.n("PASS")},           {"fail", counts.n("FAIL")},
        {"crash", counts.n("CRASH")},         {"timeout", counts.n("TIMEOUT")},
        {"error", counts.n("ERROR")},         {"unsupported", counts.n("UNSUPPORTED")},
        {"missing", counts.n("missing")},     {"executed", counts.executed()}};
    for (const auto& [field, value] : expected)
        if (rc.value(field, std::size_t{0}) != value)
            problems.push_back(name + ": recorded " + field + " " + rc.value(field, Json(nullptr)).dump() +
                               ", the instance verdicts give " + std::to_string(value));
    const std::string verdict = recorded.value("verdict", "");
    const bool breaks = counts.n("FAIL") + counts.n("CRASH") + counts.n("TIMEOUT") > 0;
    const bool rejected = !recorded.value("rejected_claims", Json::array()).empty();
    const bool gaps = counts.n("ERROR") + counts.n("missing") > 0 || !finished || counts.executed() == 0;
    if (verdict == "CONFORMANT" && (breaks || rejected || gaps))
        problems.push_back(name + ": recorded CONFORMANT, but its instances hold a failure or a gap");
    if (verdict == "NON-CONFORMANT" && !breaks && !rejected)
        problems.push_back(name + ": recorded NON-CONFORMANT without a FAIL, CRASH, TIMEOUT or rejected claim");
    if (verdict == "INCOMPLETE" && (breaks || rejected))
        problems.push_back(name + ": recorded INCOMPLETE, but a FAIL, CRASH, TIMEOUT or rejected claim makes it NON-CONFORMANT");
}

void check_summary(const Json& predicate, Verification& v) {
    const bool finished = predicate.value("state", "") == "finished";
    std::map<std::string, Counts> by_class;
    Counts all;
    for (const auto& inst : predicate.value("instances", Json::array())) {
        const Json verdict = inst.value("verdict", Json(nullptr));
        by_class[inst.value("class", "")].add(verdict);
        all.add(verdict);
    }
    const Json summary = predicate.value("summary", Json::object());
    std::vector<std::string> problems;
    std::size_t classes_seen = 0;
    for (const auto& c : summary.value("classes", Json::array())) {
        const std::string id = c.value("class", "");
        const auto it = by_class.find(id);
        if (it == by_class.end()) {
            problems.push_back("class " + id + ": in the summary but no instance of it was planned");
            continue;
        }
        ++classes_seen;
        if (c.value("verdict", "") == "NOT_APPLICABLE") {
            if (it->second.planned != it->second.n("NOT_APPLICABLE"))
                problems.push_back("class " + id + ": recorded NOT_APPLICABLE, but some instance applies");
            continue;
        }
        check_group("class " + id, c, it->second, finished, problems);
    }
    if (classes_seen != by_class.size()) problems.push_back("the summary leaves out a planned class");
    check_group("profile", summary.value("profile", Json::object()), all, finished, problems);

    const Json certificate = summary.value("certificate", Json::object());
    if (certificate.value("granted", false)) {
        const Json signer = predicate.value("signer", Json(nullptr));
        const bool certifiable = predicate.value("depth", Json::object()).value("certifiable", false);
        if (!signer.is_object() || signer.value("development", true) || !certifiable ||
            !predicate.value("operators", Json::array()).empty() || !finished ||
            summary.value("profile", Json::object()).value("verdict", "") != "CONFORMANT")
            problems.push_back("certificate: granted, but the run does not meet the conditions of SPEC.md section 8");
    }
    for (auto& p : problems) v.failures.push_back("summary: " + p);
    if (problems.empty())
        v.passed.push_back("summary: counts and verdicts follow from the " + std::to_string(all.planned) +
                           " instance verdicts");
}

}  // namespace

void rejudge(const Json& statement, Verification& v) {
    const Json predicate = statement.value("predicate", Json::object());
    const std::size_t before = v.failures.size();
    Rejudge judge(*v.catalog, v);
    for (const auto& inst : predicate.value("instances", Json::array())) judge.instance(inst);
    if (v.failures.size() == before)
        v.passed.push_back("verdicts: " + std::to_string(judge.cases()) + " case verdicts of " +
                           std::to_string(judge.judged()) + " instances re-judged from their evidence with spec " +
                           v.catalog->spec_version + "'s tolerance models");
    check_summary(predicate, v);
}

}  // namespace kcs::reports::detail
