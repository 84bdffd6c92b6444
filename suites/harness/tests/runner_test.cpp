// The runner's rule that a PASS means something was judged (SPEC.md
// section 5): a probe that returns PASS without an adapter call or without
// a judged element gets ERROR, saying so; a probe whose protocol cannot run
// returns NOT_APPLICABLE, which the instance takes; a PASS that judged
// something keeps its counts, the adapter calls counted by the harness.
#include <gtest/gtest.h>

#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"

namespace kcs::harness {
namespace {

namespace fs = std::filesystem;

const spec::Catalog& catalog() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded.catalog;
}

// Any applicable instance: the probes below ignore what it measures.
const Instance& an_instance() {
    static const std::vector<Instance> plan = [] {
        PlanRequest request;
        request.catalog = &catalog();
        request.profile = catalog().find_profile("core");
        request.depth = catalog().find_depth("smoke");
        request.claims = default_claims(catalog());
        request.operators = {"elementwise"};
        return make_plan(request);
    }();
    for (const auto& i : plan)
        if (i.applicable) return i;
    throw std::runtime_error("no applicable elementwise instance");
}

Invocation one_add() {
    Invocation add{"elementwise", "add", 0, {}, {}, {{KCS_DTYPE_F32, {4}}}};
    add.inputs = {HostTensor::zeros(KCS_DTYPE_F32, {4}), HostTensor::zeros(KCS_DTYPE_F32, {4})};
    return add;
}

CaseResult pass_with(std::uint64_t judged) {
    CaseResult r;
    r.verdict = Verdict::pass;
    r.message = "nothing wrong seen";
    r.evidence.judged = {judged, "elements"};
    return r;
}

CaseResult pass_without_running(ProbeContext&) { return pass_with(4); }
CaseResult pass_judging_nothing(ProbeContext& context) {
    context.run(one_add());
    return pass_with(0);
}
CaseResult pass_judging_four(ProbeContext& context) {
    context.run(one_add());
    return pass_with(4);
}
CaseResult step_cannot_run(ProbeContext&) {
    return verdict_only(Verdict::not_applicable, "the protocol's only step needs an f16 output");
}

InstanceResult run(Probe probe) {
    host::IsolatedAdapter adapter(host::resolve_adapter("reference-cpu"));
    return run_instance(an_instance(), probe, catalog(), default_claims(catalog()), adapter, 1, 2);
}

TEST(Runner, APassWithoutAnAdapterCallIsAnError) {
    const InstanceResult r = run(pass_without_running);
    EXPECT_EQ(r.verdict, Verdict::error);
    ASSERT_EQ(r.cases.size(), 2u);
    EXPECT_NE(r.cases[0].result.message.find("no judgement reached: the probe returned PASS after 0 adapter calls"),
              std::string::npos)
        << r.cases[0].result.message;
}

TEST(Runner, APassThatJudgedNoElementIsAnError) {
    const InstanceResult r = run(pass_judging_nothing);
    EXPECT_EQ(r.verdict, Verdict::error);
    EXPECT_NE(r.cases[0].result.message.find("after 1 adapter calls and 0 elements judged"), std::string::npos)
        << r.cases[0].result.message;
}

TEST(Runner, APassThatJudgedSomethingKeepsItsCounts) {
    const InstanceResult r = run(pass_judging_four);
    EXPECT_EQ(r.verdict, Verdict::pass);
    for (const auto& c : r.cases) {
        EXPECT_EQ(c.result.evidence.adapter_calls, 1u);
        EXPECT_EQ(c.result.evidence.judged.count, 4u);
        EXPECT_EQ(c.result.evidence.judged.unit, "elements");
    }
}

TEST(Runner, AStepThatCannotRunMakesTheInstanceNotApplicable) {
    const InstanceResult r = run(step_cannot_run);
    EXPECT_EQ(r.verdict, Verdict::not_applicable);
    EXPECT_EQ(r.cases[0].result.message, "the protocol's only step needs an f16 output");
}

}  // namespace
}  // namespace kcs::harness
