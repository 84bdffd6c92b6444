// Re-judging a report's cases from their evidence (verify.hpp): a verifier
// need not trust the verdicts a Statement records, only the catalog. Every
// case verdict of its own class must follow from its figure and a bound
// the catalog's tolerance model gives for the instance (never the bound the
// report writes), in the direction of the model (a PASS within, a FAIL
// beyond); a PASS must show something judged on at least one adapter call,
// no element over its bound and no worst element beyond the bound beside
// it; a FAIL must name a signature the catalog lists; every tolerance the
// evidence cites must be the catalog's, parameters included. The plan, the
// instance verdicts and the summary are replan.cpp's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "kcs/spec/tolerance_models.hpp"

#include "cited_tolerance.hpp"
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

// SPEC.md section 5: a PASS judged at least one element (or store, or run)
// on at least one adapter call.
bool judged_something(const Json& evidence) {
    const Json judged = evidence.value("judged", Json::object());
    const Json count = judged.is_object() ? judged.value("count", Json(nullptr)) : Json(nullptr);
    const Json calls = evidence.value("adapter_calls", Json(nullptr));
    return count.is_number_unsigned() && count.get<std::uint64_t>() >= 1 && calls.is_number_unsigned() &&
           calls.get<std::uint64_t>() >= 1;
}

class Rejudge {
public:
    Rejudge(const spec::Catalog& catalog, Verification& v) : catalog_(catalog), failures_(v, "verdicts") {}

    void instance(const Json& inst) {
        const std::string id = inst.value("id", "?");
        const std::string class_id = inst.value("class", "");
        const spec::ContractClass* cls = catalog_.find_class(class_id);
        if (!cls) return fail(id + ": class " + class_id + " is not in the catalog");
        const Json config = inst.value("config", Json::object());
        spec::DtypeConfig dtypes{config.value("inputs", std::vector<std::string>{}), config.value("output", ""), {}};
        const Json function = inst.value("function", Json());
        const auto bounds = spec::headline_bounds(
            cls->tolerance, dtypes, function.is_string() ? std::optional(function.get<std::string>()) : std::nullopt);
        for (const auto& c : inst.value("cases", Json::array())) judge_case(id, *cls, bounds, c);
        ++judged_;
    }

    std::size_t judged() const { return judged_; }
    std::size_t cases() const { return cases_; }

private:
    void fail(const std::string& what) { failures_.add("verdicts: " + what); }

    void judge_case(const std::string& id, const spec::ContractClass& cls, const std::vector<double>& bounds,
                    const Json& c) {
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
        if (verdict == "PASS") check_pass_details(where, cls, evidence);
        const spec::ToleranceModel* model = spec::find_tolerance_model(cls.tolerance.model);
        const auto figure = number_of(evidence.value("figure", Json(nullptr)));
        const auto bound = number_of(evidence.value("bound", Json(nullptr)));
        if (!figure || !bound) {
            // A verdict reached without one figure (the evidence details say how); a PASS needs one.
            if (verdict == "PASS") fail(where + ": PASS without a figure and bound to judge it by");
            return;
        }
        if (std::find(bounds.begin(), bounds.end(), *bound) == bounds.end()) {
            std::string allowed;
            for (const double b : bounds) allowed += (allowed.empty() ? "" : ", ") + number_json(b).dump();
            return fail(where + ": bound " + evidence["bound"].dump() + " is not one spec " + catalog_.spec_version +
                        "'s " + cls.tolerance.model + " gives this instance (" +
                        (allowed.empty() ? std::string("none") : allowed) + ")");
        }
        const bool holds = model && spec::figure_holds(*model, *figure, *bound);
        if (verdict == "PASS" && !holds)
            fail(where + ": PASS, but its figure " + evidence["figure"].dump() + " breaks its bound " +
                 evidence["bound"].dump() + " (" + cls.tolerance.model + ")");
        if (verdict == "FAIL" && holds)
            fail(where + ": FAIL, but its figure " + evidence["figure"].dump() + " keeps within its bound " +
                 evidence["bound"].dump() + " (" + cls.tolerance.model + ")");
    }

    // What else in a PASS's evidence bears on it: no element counted over
    // its bound anywhere in the details, and the worst element within the
    // bound recorded beside it.
    void check_pass_details(const std::string& where, const spec::ContractClass& cls, const Json& evidence) {
        std::vector<std::pair<std::string, const Json*>> counts;
        const Json details = evidence.value("details", Json());
        counts_over_bound(details, "details", counts);
        for (const auto& [path, count] : counts)
            if (!count->is_number() || count->get<double>() != 0)
                fail(where + ": PASS, but " + path + " is " + count->dump());
        // A class that states a power: the PASS compared enough distinct elements (else INCONCLUSIVE).
        if (const auto power = spec::required_power(cls.tolerance)) {
            const auto reached = number_of(details.value("/pool/power/distinct_elements"_json_pointer, Json()));
            if (!reached || *reached < static_cast<double>(power->elements))
                fail(where + ": PASS, but its distinct elements compared (" +
                     (reached ? std::to_string(static_cast<long long>(*reached)) : std::string("none recorded")) +
                     ") fall short of the " + std::to_string(power->elements) + " its class's power requires");
        }
        const Json worst = evidence.value("worst", Json());
        if (!worst.is_object()) return;
        const auto error = number_of(worst.value("error", Json())), bound = number_of(worst.value("bound", Json()));
        if (!error || !bound) return;
        // Where the headline figure is the error over its bound (the worst
        // records both), the limit on the error is the headline bound times
        // the element's; a relative 1e-12 absorbs the rounding of that ratio.
        const spec::ToleranceModel* model = spec::find_tolerance_model(cls.tolerance.model);
        if (!model) return;  // the catalog loader refuses a class whose model is unknown
        const auto headline = number_of(evidence.value("bound", Json()));
        const bool ratio = model->ratio_figure;
        const double limit = ratio && headline ? *headline * *bound * (1 + 1e-12) : *bound;
        if (!spec::figure_holds(*model, *error, limit))
            fail(where + ": PASS, but its worst element's error " + worst["error"].dump() + " breaks its bound " +
                 worst["bound"].dump() + (ratio ? " (times " + evidence["bound"].dump() + ")" : std::string()));
    }

    // Every count of elements over their bound in the details, wherever the
    // probe put it (a sweep records one per step).
    static void counts_over_bound(const Json& node, const std::string& path,
                                  std::vector<std::pair<std::string, const Json*>>& out) {
        if (node.is_object()) {
            for (const auto& [key, child] : node.items()) {
                const std::string at = path + "." + key;
                if (key == "elements_over_bound" || key == "results_over_bound")
                    out.emplace_back(at, &child);
                else
                    counts_over_bound(child, at, out);
            }
        } else if (node.is_array()) {
            for (std::size_t i = 0; i < node.size(); ++i)
                counts_over_bound(node[i], path + "[" + std::to_string(i) + "]", out);
        }
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

    const spec::Catalog& catalog_;
    CappedFailures failures_;
    std::size_t judged_ = 0, cases_ = 0;
};

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
}

}  // namespace kcs::reports::detail
