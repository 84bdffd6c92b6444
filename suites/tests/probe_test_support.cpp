#include "probe_test_support.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <memory>
#include <stdexcept>

#include "kcs/host/adapter_search.hpp"
#include "kcs/reference/number_text.hpp"
#include "probes.hpp"

namespace kcs::suites::testing {

namespace {

// The catalog, claims and plans are loaded once per test process and kept,
// so that results can point into them.
struct Fixture {
    spec::Catalog catalog;
    harness::Claims claims;
    std::map<std::string, std::vector<harness::Instance>> plans;  // by profile + "/" + depth

    static Fixture& get() {
        static Fixture* fixture = [] {
            auto* f = new Fixture;
            auto loaded = spec::load_catalog(std::string(KCS_SOURCE_DIR) + "/spec/v1");
            if (!loaded.ok()) throw std::runtime_error("the catalog does not load");
            f->catalog = std::move(loaded.catalog);
            auto claims = harness::load_claims(std::string(KCS_SOURCE_DIR) + "/vendors/reference-cpu/claims.yaml",
                                               f->catalog);
            if (!claims.diagnostics.empty()) throw std::runtime_error("reference-cpu claims do not load");
            f->claims = std::move(claims.claims);
            return f;
        }();
        return *fixture;
    }

    const std::vector<harness::Instance>& plan(const std::string& profile, const std::string& depth) {
        auto& plan = plans[profile + "/" + depth];
        if (plan.empty()) {
            harness::PlanRequest request;
            request.catalog = &catalog;
            request.profile = catalog.find_profile(profile);
            request.depth = catalog.find_depth(depth);
            request.claims = claims;
            plan = harness::make_plan(request);
        }
        return plan;
    }
};

}  // namespace

namespace {

const harness::Instance& planned(const std::string& instance_id, const std::string& depth, const std::string& profile) {
    for (const auto& i : Fixture::get().plan(profile, depth))
        if (i.id == instance_id) return i;
    throw std::runtime_error("no instance " + instance_id + " in the " + profile + "/" + depth + " plan");
}

ProbeRun run(const harness::Instance& instance, const std::string& adapter_name, const std::string& violation,
             const std::string& depth, const std::map<std::string, std::string>& claims) {
    Fixture& f = Fixture::get();
    host::IsolationOptions options;
    if (!violation.empty())
        options.adapter_options.push_back(violation.find('=') == std::string::npos ? "violation=" + violation : violation);
    host::IsolatedAdapter adapter(host::resolve_adapter(adapter_name), options);
    const harness::Probe probe = find_probe(instance.contract->id, instance.op->id);
    harness::Claims in_force = f.claims;
    for (const auto& [id, value] : claims) in_force.values[id] = value;
    auto result = harness::run_instance(instance, probe, f.catalog, in_force, adapter, 1,
                                        f.catalog.find_depth(depth)->seeds);
    // Every probe's message shows its numbers with ref::number_text: never
    // as %f does ("21267647932558653966460912964485513216.000000 ulp", or
    // "0.000000" for 1e-10), which six zeros after a point give away.
    for (const auto& c : result.cases)
        EXPECT_EQ(c.result.message.find(".000000"), std::string::npos)
            << instance.id << " seed " << c.seed << ": a number in the message is not number_text's: "
            << c.result.message;
    return {result.verdict, std::move(result)};
}

}  // namespace

ProbeRun run_instance(const std::string& instance_id, const std::string& adapter_name, const std::string& violation,
                      const std::string& depth, const std::string& profile,
                      const std::map<std::string, std::string>& claims) {
    return run(planned(instance_id, depth, profile), adapter_name, violation, depth, claims);
}

ProbeRun run_split_instance(const std::string& instance_id, const harness::Instance::SweepSplit& split,
                            const std::string& adapter, const std::string& violation) {
    // Kept for the test process's life, as the plans are: results point to them.
    static std::deque<harness::Instance> split_instances;
    harness::Instance& instance = split_instances.emplace_back(planned(instance_id, "smoke", "strict"));
    instance.sweep = split;
    return run(instance, adapter, violation, "smoke", {});
}

std::string instance_id(const std::string& class_id, const std::string& op, const std::string& config) {
    const spec::ContractClass* contract = Fixture::get().catalog.find_class(class_id);
    if (!contract) throw std::invalid_argument("no class " + class_id + " in the catalog");
    return "v1/" + class_id + "/" + op + "/" + config + "/" + harness::variant_of(*contract);
}

std::string describe(const harness::InstanceResult& result) {
    std::string out = std::string(harness::to_string(result.verdict));
    for (const auto& c : result.cases) {
        out += "\n  seed " + std::to_string(c.seed) + ": " + std::string(harness::to_string(c.result.verdict));
        if (!c.result.violated_class.empty()) out += " " + c.result.violated_class;
        if (!c.result.signature.empty()) out += " " + c.result.signature;
        out += ": " + c.result.message + " (" + c.result.evidence.figure_name + " " +
               ref::number_text(c.result.evidence.figure) + " vs bound " + ref::number_text(c.result.evidence.bound) +
               ")";
    }
    return out;
}

void expect_conforming(const ProbeRun& run) {
    using harness::Verdict;
    const harness::Instance& instance = *run.result.instance;
    if (!instance.applicable) {
        EXPECT_EQ(run.verdict, Verdict::not_applicable) << instance.id << ": " << describe(run.result);
        EXPECT_FALSE(instance.not_applicable_reason.empty()) << instance.id;
        return;
    }
    ASSERT_EQ(run.verdict, Verdict::pass) << instance.id << ": " << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_GE(c.result.evidence.adapter_calls, 1u) << instance.id;
        EXPECT_GE(c.result.evidence.judged.count, 1u) << instance.id;
    }
}

void expect_fail(const std::string& instance, const std::string& violation, const std::string& class_id,
                 const std::string& signature) {
    using harness::Verdict;
    const auto run = run_instance(instance, "calibration", violation);
    ASSERT_EQ(run.verdict, Verdict::fail) << instance << " under " << violation << ": " << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.verdict, Verdict::fail) << instance << ": " << describe(run.result);
        EXPECT_EQ(c.result.violated_class, class_id) << instance << ": " << describe(run.result);
        EXPECT_EQ(c.result.signature, signature) << instance << ": " << describe(run.result);
    }
}

}  // namespace kcs::suites::testing
