// The support phase with the real registry (SPEC.md section 8): the
// template adapter computes elementwise add on f32 and declines the rest.
// Every instance of an operator it declines is UNSUPPORTED before any data
// exists (no adapter run); the instances of what it computes run and judge.
#include <gtest/gtest.h>

#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "probes.hpp"
#include "support.hpp"

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

// The catalog's operator signatures (spec/v1/operators/*.yaml: every
// function and dtype configuration, default attributes) against the one op
// parser every adapter here shares and the reference kernels: each
// declared form is accepted, and the same form with an input dropped is not.
TEST(SupportPhase, EveryCatalogSignatureIsOfferedByTheReferenceKernels) {
    const Planned& p = planned();
    host::IsolatedAdapter adapter(host::resolve_adapter("reference-cpu"));
    harness::GuardedDevice device(adapter, 1);
    std::size_t forms = 0;
    for (const auto& op : p.catalog.operators) {
        std::vector<std::optional<std::string>> functions;
        for (const auto& f : op.functions) functions.emplace_back(f.name);
        if (functions.empty()) functions.emplace_back(std::nullopt);
        for (const auto& function : functions)
            for (const auto& config : op.configs) {
                harness::Instance instance;
                instance.op = &op;
                instance.config = config;
                instance.function = function;
                for (const auto& form : declare_instance_form(instance)) {
                    // The configuration's dtypes in order (elementwise lists c for
                    // mul_add; its binary functions take the first two).
                    ASSERT_LE(form.inputs.size(), config.inputs.size()) << harness::support_form(form);
                    for (std::size_t i = 0; i < form.inputs.size(); ++i)
                        EXPECT_EQ(harness::dtype_name(form.inputs[i].dtype), config.inputs[i]) << config.id();
                    EXPECT_EQ(harness::dtype_name(form.outputs.at(0).dtype), config.output) << config.id();
                    const host::CallResult accepted = device.supports(form);
                    EXPECT_TRUE(accepted.ok()) << harness::support_form(form) << ": " << accepted.describe();
                    harness::Invocation short_form = form;
                    short_form.inputs.pop_back();
                    EXPECT_FALSE(device.supports(short_form).ok()) << harness::support_form(short_form);
                    ++forms;
                }
            }
    }
    EXPECT_GE(forms, p.catalog.operators.size());  // at least one form of every operator (76 in v1)
}

}  // namespace
}  // namespace kcs::suites
