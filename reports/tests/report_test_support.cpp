#include "report_test_support.hpp"

#include <stdexcept>

namespace kcs::reports::testing {

const spec::Catalog& catalog() {
    static const spec::Catalog loaded = [] {
        auto result = spec::load_catalog(std::string(KCS_SOURCE_DIR) + "/spec/v1");
        if (!result.ok()) throw std::runtime_error("spec/v1 does not load");
        return std::move(result.catalog);
    }();
    return loaded;
}

TestPlan plan_of(const std::string& op, const std::string& claims_adapter) {
    TestPlan t;
    t.request.catalog = &catalog();
    if (!harness::resolve_choice(t.request, {"core", "smoke", {op}, {}, {}}).empty())
        throw std::runtime_error("core/smoke/" + op + " does not resolve");
    if (claims_adapter.empty()) {
        t.request.claims = harness::default_claims(catalog());
    } else {
        auto claims = harness::load_claims(std::string(KCS_SOURCE_DIR) + "/vendors/" + claims_adapter + "/claims.yaml",
                                           catalog());
        if (!claims.diagnostics.empty()) throw std::runtime_error(claims_adapter + "'s claims do not load");
        t.request.claims = std::move(claims.claims);
    }
    t.run.plan = harness::make_plan(t.request);
    t.run.results.resize(t.run.plan.size());
    return t;
}

RunDescription description_of(const TestPlan& t, const std::string& adapter) {
    RunDescription run;
    run.catalog = t.request.catalog;
    run.profile = t.request.profile;
    run.depth = t.request.depth;
    run.claims = t.request.claims;
    run.operators = t.request.operators;
    run.plan_digest = harness::plan_digest(t.run.plan);
    run.adapter = {adapter, "/lib/libkcs-adapter-reference-cpu.so", {"threads=2"}, std::nullopt, "no info", {}};
    run.kcs_version = "0.1.0";
    run.seeds = 2;
    run.call_timeout = std::chrono::seconds(30);
    run.started = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
    run.repro = {adapter, {"threads=2"}, "/v/claims.yaml", {}, "core", "smoke", std::nullopt};
    run.command_line = {"kcs", "certify", "--adapter", adapter};
    return run;
}

harness::InstanceResult result_with(const harness::Instance& instance, const std::vector<harness::Verdict>& cases) {
    harness::InstanceResult r;
    r.instance = &instance;
    r.verdict = harness::Verdict::pass;
    std::uint64_t seed = 1;
    for (const auto v : cases) {
        harness::CaseRecord c;
        c.seed = seed++;
        c.result.verdict = v;
        c.result.message = std::string(harness::to_string(v));
        if (v == harness::Verdict::fail) {
            c.result.violated_class = instance.contract->id;
            c.result.signature = "unmatched";
        }
        c.wall = std::chrono::milliseconds(10);
        r.verdict = harness::worst_of(r.verdict, v);
        r.cases.push_back(std::move(c));
    }
    if (!instance.applicable) {
        r.verdict = harness::Verdict::not_applicable;
        r.cases.clear();
    }
    return r;
}

void pass_everything(RunResults& run) {
    for (std::size_t i = 0; i < run.plan.size(); ++i)
        run.results[i] = run.plan[i].applicable
                             ? result_with(run.plan[i], {harness::Verdict::pass, harness::Verdict::pass})
                             : harness::InstanceResult{&run.plan[i], harness::Verdict::not_applicable, {}};
}

std::size_t index_of(const RunResults& run, const std::string& class_id, const std::string& config) {
    for (std::size_t i = 0; i < run.plan.size(); ++i)
        if (run.plan[i].contract->id == class_id && (config.empty() || run.plan[i].config.id() == config)) return i;
    throw std::runtime_error("no instance of " + class_id + " " + config + " in the plan");
}

const ClassSummary& class_summary(const Summary& summary, const std::string& class_id) {
    for (const auto& c : summary.classes)
        if (c.class_id == class_id) return c;
    throw std::runtime_error("no summary of " + class_id);
}

void name_signer(Json& statement, const PublicKey& key) {
    Json& p = statement["predicate"];
    p["signed"] = true;
    p["signer"] = {{"keyid", key.keyid()}, {"label", key.label}, {"development", key.development}};
    Json& certificate = p["summary"]["certificate"];
    Json reasons = key.development ? Json::array({"signed with a development key (" + key.label + ")"}) : Json::array();
    for (const auto& r : certificate["reasons"])
        if (r != "unsigned (a development run)") reasons.push_back(r);
    certificate["granted"] = reasons.empty();
    certificate["reasons"] = reasons;
}

}  // namespace kcs::reports::testing
