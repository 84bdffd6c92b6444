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

// ---- the support phase: declared forms are offered to supports() first

int measured = 0;  // how often a measure below ran (and so could generate data)

Invocation form_of(const Invocation& invocation) {
    Invocation form = invocation;
    for (auto& t : form.inputs) t.bytes.clear();
    return form;
}

Invocation declined_form() {
    Invocation no_such = form_of(one_add());
    no_such.op = "kcs-test-no-such-operator";
    return no_such;
}

std::vector<Invocation> declare_declined(const Instance&) { return {declined_form()}; }
std::vector<Invocation> declare_add_and_declined(const Instance&) { return {form_of(one_add()), declined_form()}; }

CaseResult count_and_pass(ProbeContext& context) {
    ++measured;
    context.run(one_add());
    return pass_with(4);
}

// Runs the declined form where the support phase offered it, as a probe
// with optional parts does; here it must stop the case.
CaseResult run_the_declined_form(ProbeContext& context) {
    ++measured;
    EXPECT_TRUE(context.declined(declined_form()));
    EXPECT_FALSE(context.declined(one_add()));
    context.run(one_add());
    const std::uint64_t before = context.adapter_calls();
    try {
        context.run(declined_form());
    } catch (const CaseStop& stop) {
        EXPECT_EQ(stop.result.verdict, Verdict::unsupported);
        EXPECT_EQ(context.adapter_calls(), before);  // the adapter was not asked
        throw;
    }
    return pass_with(4);
}

CaseResult skip_the_declined_form(ProbeContext& context) {
    ++measured;
    if (!context.declined(declined_form())) context.run(declined_form());
    context.run(one_add());
    return pass_with(4);
}

TEST(SupportPhase, AnInstanceWhoseEveryFormIsDeclinedNeverRunsItsProbe) {
    measured = 0;
    const InstanceResult r = run(Probe{count_and_pass, declare_declined});
    EXPECT_EQ(r.verdict, Verdict::unsupported);
    EXPECT_EQ(measured, 0);  // no data generated, nothing run
    ASSERT_EQ(r.cases.size(), 2u);
    for (const auto& c : r.cases) {
        EXPECT_EQ(c.result.verdict, Verdict::unsupported);
        EXPECT_EQ(c.result.evidence.adapter_calls, 0u);
        EXPECT_NE(c.result.message.find("before any data existed, for every invocation the case declares: "
                                        "kcs-test-no-such-operator.add f32,f32->f32 ranks 1,1->1"),
                  std::string::npos)
            << c.result.message;
    }
}

TEST(SupportPhase, SomeFormsDeclinedTheProbeRunsTheRestAndSaysWhich) {
    measured = 0;
    const InstanceResult skipped = run(Probe{skip_the_declined_form, declare_add_and_declined});
    EXPECT_EQ(skipped.verdict, Verdict::pass);
    EXPECT_EQ(measured, 2);
    for (const auto& c : skipped.cases) {
        EXPECT_EQ(c.result.evidence.adapter_calls, 1u);
        EXPECT_NE(c.result.message.find("judged without what the adapter declines: kcs-test-no-such-operator.add"),
                  std::string::npos)
            << c.result.message;
    }
    const InstanceResult stopped = run(Probe{run_the_declined_form, declare_add_and_declined});
    EXPECT_EQ(stopped.verdict, Verdict::unsupported);
    EXPECT_NE(stopped.cases[0].result.message.find("the support phase found kcs-test-no-such-operator.add"),
              std::string::npos)
        << stopped.cases[0].result.message;
}

TEST(SupportPhase, AProbeThatDeclaresNothingSkipsIt) {
    measured = 0;
    const InstanceResult r = run(Probe{count_and_pass});
    EXPECT_EQ(r.verdict, Verdict::pass);
    EXPECT_EQ(measured, 2);
}

TEST(Runner, AStepThatCannotRunMakesTheInstanceNotApplicable) {
    const InstanceResult r = run(step_cannot_run);
    EXPECT_EQ(r.verdict, Verdict::not_applicable);
    EXPECT_EQ(r.cases[0].result.message, "the protocol's only step needs an f16 output");
}

}  // namespace
}  // namespace kcs::harness
