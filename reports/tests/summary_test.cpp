// Class and profile verdicts, coverage and pass rate (spec/SPEC.md section 5).
#include "kcs/reports/summary.hpp"

#include <gtest/gtest.h>

#include "report_test_support.hpp"

namespace kcs::reports {
namespace {

using harness::Verdict;
using testing::class_summary;
using testing::index_of;
using testing::pass_everything;
using testing::plan_of;
using testing::result_with;

bool mentions(const std::vector<std::string>& reasons, const std::string& text) {
    for (const auto& r : reasons)
        if (r.find(text) != std::string::npos) return true;
    return false;
}

TEST(Summary, EveryInstancePassingIsConformantWithFullCoverage) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(s.profile.verdict, Judgement::conformant) << ::testing::PrintToString(s.profile.reasons);
    EXPECT_TRUE(s.profile.reasons.empty());
    EXPECT_EQ(s.profile.tally.planned, t.run.plan.size());
    EXPECT_EQ(s.profile.tally.executed(), t.run.plan.size());
    EXPECT_EQ(s.profile.tally.coverage(), 1.0);
    EXPECT_EQ(s.profile.tally.pass_rate(), 1.0);
    ASSERT_EQ(s.classes.size(), 5u);  // C-CMP-02, C-EXC-01, C-EXC-02, C-ORD-02, C-ORD-03 cover reduce_max
    for (const auto& c : s.classes) EXPECT_EQ(c.verdict, Judgement::conformant) << c.class_id;
}

TEST(Summary, OneFailingCaseMakesItsClassAndTheProfileNonConformant) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const auto i = index_of(t.run, "C-EXC-01", "f16-f16");
    t.run.results[i] = result_with(t.run.plan[i], {Verdict::pass, Verdict::fail});
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(class_summary(s, "C-EXC-01").verdict, Judgement::non_conformant);
    EXPECT_EQ(class_summary(s, "C-CMP-02").verdict, Judgement::conformant);
    EXPECT_EQ(s.profile.verdict, Judgement::non_conformant);
    EXPECT_TRUE(mentions(s.profile.reasons, "1 FAIL"));
    // The failing instance was executed: coverage stays full, the pass rate drops.
    EXPECT_EQ(class_summary(s, "C-EXC-01").tally.coverage(), 1.0);
    EXPECT_DOUBLE_EQ(*class_summary(s, "C-EXC-01").tally.pass_rate(), 2.0 / 3.0);
}

// reduce_max f16-f16: a C-ORD-03 FAIL that assumed run-to-run determinism
// beside a C-ORD-02 FAIL on the same configuration (SPEC.md section 5,
// "Primary cause"): the echo leaves its class INCOMPLETE, the cause keeps
// the profile NON-CONFORMANT.
TEST(Summary, AFailThatIsAConsequenceLeavesItsClassIncompleteNotNonConformant) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const auto cause = index_of(t.run, "C-ORD-02", "f16-f16");
    const auto echo = index_of(t.run, "C-ORD-03", "f16-f16");
    t.run.results[cause] = result_with(t.run.plan[cause], {Verdict::fail});
    t.run.results[echo] = result_with(t.run.plan[echo], {Verdict::fail});
    t.run.results[echo]->cases[0].result.assumes = {"C-ORD-02"};
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    const ClassSummary& ord03 = class_summary(s, "C-ORD-03");
    EXPECT_EQ(ord03.verdict, Judgement::incomplete) << ::testing::PrintToString(ord03.reasons);
    EXPECT_EQ(ord03.tally.fail, 1u);
    EXPECT_EQ(ord03.tally.consequence, 1u);
    EXPECT_TRUE(mentions(ord03.reasons, "1 FAIL as a consequence of another class's FAIL"));
    EXPECT_EQ(class_summary(s, "C-ORD-02").verdict, Judgement::non_conformant);
    EXPECT_EQ(s.profile.verdict, Judgement::non_conformant);
    EXPECT_EQ(s.profile.tally.consequence, 1u);

    // Without the cause the same FAIL is primary.
    t.run.results[cause] = result_with(t.run.plan[cause], {Verdict::pass});
    const Summary alone = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(class_summary(alone, "C-ORD-03").verdict, Judgement::non_conformant);
    EXPECT_EQ(class_summary(alone, "C-ORD-03").tally.consequence, 0u);
}

TEST(Summary, CrashAndTimeoutAreNonConformantToo) {
    for (const Verdict v : {Verdict::crash, Verdict::timeout}) {
        auto t = plan_of("reduce_max");
        pass_everything(t.run);
        const auto i = index_of(t.run, "C-EXC-02");
        t.run.results[i] = result_with(t.run.plan[i], {v});
        const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
        EXPECT_EQ(s.profile.verdict, Judgement::non_conformant) << harness::to_string(v);
        EXPECT_EQ(s.profile.tally.executed(), t.run.plan.size()) << "a crash or timeout counts as executed";
    }
}

TEST(Summary, AnErrorIsIncompleteAndLowersCoverageNotThePassRate) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const auto i = index_of(t.run, "C-ORD-02");
    t.run.results[i] = result_with(t.run.plan[i], {Verdict::error, Verdict::error});
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    const auto& c = class_summary(s, "C-ORD-02");
    EXPECT_EQ(c.verdict, Judgement::incomplete);
    EXPECT_TRUE(mentions(c.reasons, "1 ERROR"));
    EXPECT_DOUBLE_EQ(*c.tally.coverage(), 2.0 / 3.0);
    EXPECT_EQ(c.tally.pass_rate(), 1.0);
    EXPECT_EQ(s.profile.verdict, Judgement::incomplete);
}

TEST(Summary, AFailOutranksAnErrorButBothAreReported) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const auto i = index_of(t.run, "C-ORD-03");
    t.run.results[i] = result_with(t.run.plan[i], {Verdict::error, Verdict::fail});
    t.run.results[i + 1] = result_with(t.run.plan[i + 1], {Verdict::error});
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(class_summary(s, "C-ORD-03").verdict, Judgement::non_conformant);
    EXPECT_TRUE(mentions(class_summary(s, "C-ORD-03").reasons, "1 FAIL"));
    EXPECT_TRUE(mentions(class_summary(s, "C-ORD-03").reasons, "1 ERROR"));
}

TEST(Summary, AMissingVerdictIsNeverAPass) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    t.run.results.back().reset();
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(s.profile.tally.missing, 1u);
    EXPECT_EQ(s.profile.tally.pass, t.run.plan.size() - 1);
    EXPECT_EQ(s.profile.verdict, Judgement::incomplete);
    EXPECT_TRUE(mentions(s.profile.reasons, "1 missing"));
}

TEST(Summary, AnInterruptedRunIsIncompleteEvenWhereEverythingRanAndPassed) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    for (const RunState state : {RunState::interrupted, RunState::in_progress}) {
        const Summary s = summarize(t.run, *t.request.profile, t.request.claims, state);
        EXPECT_EQ(s.profile.verdict, Judgement::incomplete) << to_string(state);
        for (const auto& c : s.classes) EXPECT_EQ(c.verdict, Judgement::incomplete) << c.class_id;
    }
}

TEST(Summary, DecliningAPairAsAWholeOnlyLowersCoverage) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    std::size_t declined = 0;
    for (std::size_t i = 0; i < t.run.plan.size(); ++i) {
        if (t.run.plan[i].config.id() != "f16-f16") continue;
        t.run.results[i] = result_with(t.run.plan[i], {Verdict::unsupported, Verdict::unsupported});
        ++declined;
    }
    ASSERT_EQ(declined, 5u);
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(s.profile.verdict, Judgement::conformant) << ::testing::PrintToString(s.profile.reasons);
    EXPECT_DOUBLE_EQ(*s.profile.tally.coverage(), 10.0 / 15.0);
    EXPECT_EQ(s.profile.tally.unsupported, 5u);
}

TEST(Summary, DecliningPartOfAPairIsPartialSupportAndIncomplete) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);
    const auto i = index_of(t.run, "C-CMP-02", "f16-f16");
    t.run.results[i] = result_with(t.run.plan[i], {Verdict::unsupported});
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    // Within C-CMP-02 the pair is declined as a whole; across the profile it is run elsewhere.
    EXPECT_EQ(class_summary(s, "C-CMP-02").verdict, Judgement::conformant);
    EXPECT_EQ(s.profile.verdict, Judgement::incomplete);
    EXPECT_TRUE(mentions(s.profile.reasons, "partial support: reduce_max f16-f16"));
}

TEST(Summary, AClaimTheProfileDoesNotAcceptMakesItNonConformant) {
    auto t = plan_of("reduce_max", "");  // the catalog defaults: oob_policy undefined
    pass_everything(t.run);
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(s.profile.verdict, Judgement::non_conformant);
    ASSERT_EQ(s.profile.rejected_claims.size(), 1u);
    EXPECT_EQ(s.profile.rejected_claims[0].id, "oob_policy");
    EXPECT_TRUE(mentions(s.profile.reasons, "claim oob_policy: undefined is not accepted"));
    // Classes judge instances only.
    EXPECT_EQ(class_summary(s, "C-EXC-02").verdict, Judgement::conformant);
}

TEST(Summary, AClassTheClaimsExcludeIsNotApplicableAndLeavesTheProfileAlone) {
    auto t = plan_of("reduce_max", "");
    pass_everything(t.run);
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    const auto& ord02 = class_summary(s, "C-ORD-02");
    EXPECT_EQ(ord02.verdict, Judgement::not_applicable);
    EXPECT_EQ(ord02.tally.applicable(), 0u);
    EXPECT_FALSE(ord02.tally.coverage().has_value());
    EXPECT_FALSE(ord02.tally.pass_rate().has_value());
    EXPECT_EQ(ord02.requirement, "if_claimed");
    EXPECT_EQ(s.profile.tally.not_applicable, 6u);  // C-ORD-02 and C-ORD-03, three configs each
    EXPECT_DOUBLE_EQ(*s.profile.tally.coverage(), 1.0);
}

TEST(Summary, NothingExecutedIsIncomplete) {
    auto t = plan_of("reduce_max");
    for (std::size_t i = 0; i < t.run.plan.size(); ++i) t.run.results[i] = result_with(t.run.plan[i], {Verdict::error});
    const Summary s = summarize(t.run, *t.request.profile, t.request.claims, RunState::finished);
    EXPECT_EQ(s.profile.verdict, Judgement::incomplete);
    EXPECT_TRUE(mentions(s.profile.reasons, "no instance was executed"));
    EXPECT_EQ(s.profile.tally.coverage(), 0.0);
    EXPECT_FALSE(s.profile.tally.pass_rate().has_value());
}

TEST(Summary, WorstCaseIsTheFirstCaseWithTheInstanceVerdict) {
    auto t = plan_of("reduce_max");
    const auto r = result_with(t.run.plan[0], {Verdict::pass, Verdict::error, Verdict::fail, Verdict::fail});
    EXPECT_EQ(worst_case(r), 2u);
    EXPECT_FALSE(worst_case(harness::InstanceResult{}).has_value());
}

TEST(TimeSplit, OutsideCasesIsTotalLessTheirWallTime) {
    auto t = plan_of("reduce_max");
    pass_everything(t.run);  // 15 instances x 2 cases x 10 ms
    const TimeSplit split = time_split(t.run, std::chrono::seconds(2), std::chrono::milliseconds(500));
    EXPECT_DOUBLE_EQ(split.total_s, 2.0);
    EXPECT_DOUBLE_EQ(split.outside_cases_s, 1.5);
    EXPECT_NEAR(split.case_time_s, 0.3, 1e-9);
    ASSERT_TRUE(split.adapter_s.has_value());
    ASSERT_TRUE(split.oracle_and_harness_s.has_value());
    EXPECT_NEAR(*split.adapter_s + *split.oracle_and_harness_s, split.case_time_s, 1e-9);
}

}  // namespace
}  // namespace kcs::reports
