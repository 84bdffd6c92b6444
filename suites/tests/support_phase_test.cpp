// The support phase with the real registry (SPEC.md section 8): the
// template adapter computes elementwise add on f32 and declines the rest.
// Every instance of an operator it declines is UNSUPPORTED before any data
// exists (no adapter run); the instances of what it computes run and judge.
#include <gtest/gtest.h>

#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "probes.hpp"

namespace kcs::suites {
namespace {

struct Planned {
    spec::Catalog catalog;
    harness::Claims claims;
    std::vector<harness::Instance> plan;
};

const Planned& planned() {
    static const Planned* p = [] {
        auto* out = new Planned;
        out->catalog = spec::load_catalog(std::string(KCS_SOURCE_DIR) + "/spec/v1").catalog;
        out->claims = harness::default_claims(out->catalog);
        harness::PlanRequest request;
        request.catalog = &out->catalog;
        request.profile = out->catalog.find_profile("core");
        request.depth = out->catalog.find_depth("smoke");
        request.claims = out->claims;
        request.operators = {"softmax", "elementwise"};
        out->plan = harness::make_plan(request);
        return out;
    }();
    return *p;
}

harness::InstanceResult run(const harness::Instance& instance, host::IsolatedAdapter& adapter) {
    const Planned& p = planned();
    return harness::run_instance(instance, find_probe(instance.contract->id, instance.op->id), p.catalog, p.claims,
                                 adapter, 1, 2);
}

TEST(SupportPhase, AnOperatorTheAdapterDeclinesIsNeverRun) {
    host::IsolatedAdapter adapter(host::resolve_adapter("template"));
    std::size_t declined = 0;
    for (const auto& instance : planned().plan) {
        if (!instance.applicable || instance.op->id != "softmax") continue;
        const harness::InstanceResult r = run(instance, adapter);
        EXPECT_EQ(r.verdict, harness::Verdict::unsupported) << instance.id;
        for (const auto& c : r.cases) {
            EXPECT_EQ(c.result.evidence.adapter_calls, 0u) << instance.id;
            EXPECT_NE(c.result.message.find("before any data existed"), std::string::npos) << c.result.message;
        }
        ++declined;
    }
    EXPECT_GT(declined, 10u);
}

TEST(SupportPhase, WhatTheAdapterComputesIsRunAndJudged) {
    host::IsolatedAdapter adapter(host::resolve_adapter("template"));
    std::size_t judged = 0;
    for (const auto& instance : planned().plan) {
        if (!instance.applicable || instance.function != "add" || instance.config.output != "f32" ||
            instance.contract->id != "C-EXC-02")
            continue;
        const harness::InstanceResult r = run(instance, adapter);
        EXPECT_EQ(r.verdict, harness::Verdict::pass) << instance.id;
        for (const auto& c : r.cases) EXPECT_GT(c.result.evidence.adapter_calls, 0u) << instance.id;
        ++judged;
    }
    EXPECT_EQ(judged, 1u);
}

}  // namespace
}  // namespace kcs::suites
