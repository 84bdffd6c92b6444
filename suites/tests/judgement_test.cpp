// The judging home: the element rule and its figure (tolerance/element_judgement),
// the case verdict (harness/case_verdict), and the comparison direction each
// tolerance model gives its figure (spec::figure_holds), which kcs verify's
// re-judging reads to reach the verdict the probe's counts reached.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <vector>

#include "../tolerance/element_judgement.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "kcs/spec/tolerance_models.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites::testing {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const spec::Catalog& catalog() {
    static const spec::LoadResult loaded =
        spec::load_catalog(std::filesystem::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded.catalog;
}

TEST(ElementJudgement, AnElementHoldsWhenFiniteAndWithinItsBound) {
    EXPECT_TRUE(tolerance::element_holds(1.0, 1.0, 0.0));
    EXPECT_TRUE(tolerance::element_holds(1.5, 1.0, 0.5));
    EXPECT_FALSE(tolerance::element_holds(1.5000001, 1.0, 0.5));
    EXPECT_FALSE(tolerance::element_holds(kInf, kInf, 1e300));  // a non-finite y never holds
    EXPECT_FALSE(tolerance::element_holds(kNaN, 1.0, kInf));
}

TEST(ElementJudgement, TheRatioIsInfiniteForANonFiniteResultOrAnErrorAgainstAZeroBound) {
    EXPECT_EQ(tolerance::error_ratio(2.0, 0.0, 0.0), 0.0);
    EXPECT_EQ(tolerance::error_ratio(2.0, 1e-30, 0.0), kInf);
    EXPECT_EQ(tolerance::error_ratio(kNaN, kInf, 1.0), kInf);
    EXPECT_DOUBLE_EQ(tolerance::error_ratio(2.0, 0.25, 0.5), 0.5);
}

TEST(ElementJudgement, CountsOverBoundAndKeepsTheFirstWorstElement) {
    const std::vector<double> got{1.0, 2.5, kNaN, 4.0, 5.5};
    const std::vector<double> exact{1.0, 2.0, 3.0, 4.0, 5.0};
    const std::vector<double> bound{0.1, 1.0, 1.0, 0.0, 0.25};
    const auto j = tolerance::judge_elements(got, exact, [&](std::size_t i) { return bound[i]; });
    EXPECT_EQ(j.judged, 5u);
    EXPECT_EQ(j.over_bound, 2u);  // the NaN and 5.5 (0.5 over 0.25)
    EXPECT_EQ(j.nonfinite, 1u);
    EXPECT_EQ(j.nan, 1u);
    ASSERT_TRUE(j.first_nonfinite && j.worst);
    EXPECT_EQ(*j.first_nonfinite, 2u);
    EXPECT_EQ(*j.worst, 2u);  // +inf, the first of the largest ratios
    EXPECT_EQ(j.worst_ratio, kInf);
    EXPECT_FALSE(j.pass());

    harness::Evidence e;
    j.record(e, "max |y - y*| / dot_bound", "elements", [&](std::size_t i) {
        harness::WorstElement w;
        w.index = static_cast<std::int64_t>(i);
        return w;
    });
    EXPECT_EQ(e.figure, kInf);
    EXPECT_EQ(e.bound, 1.0);
    EXPECT_EQ(e.judged.count, 5u);
    ASSERT_TRUE(e.worst);
    EXPECT_EQ(e.worst->index, 2);
}

TEST(ElementJudgement, AllExactPassesWithTheFirstElementAsWorst) {
    const std::vector<double> y{1.0, 2.0};
    const auto j = tolerance::judge_elements(y, y, [](std::size_t) { return 0.0; });
    EXPECT_TRUE(j.pass());
    ASSERT_TRUE(j.worst);
    EXPECT_EQ(*j.worst, 0u);
    EXPECT_EQ(j.worst_ratio, 0.0);
    const std::vector<double> shorter{1.0};
    EXPECT_THROW(tolerance::judge_elements(y, shorter, [](std::size_t) { return 0.0; }), std::invalid_argument);
    EXPECT_FALSE(tolerance::ElementJudgement{}.pass());  // nothing judged is no PASS
}

harness::Evidence evidence_of(double figure, double bound) {
    harness::Evidence e;
    e.figure_name = "max |y - y*| / dot_bound";
    e.figure = figure;
    e.bound = bound;
    return e;
}

TEST(CaseVerdict, AFailNamesOnlyASignatureItsClassLists) {
    harness::Instance instance;
    instance.contract = catalog().find_class("C-PRC-01");
    ASSERT_NE(instance.contract, nullptr);
    const auto pass = harness::case_verdict(instance, "", "ok", evidence_of(0.5, 1));
    EXPECT_EQ(pass.verdict, harness::Verdict::pass);
    EXPECT_TRUE(pass.violated_class.empty());
    const auto fail = harness::case_verdict(instance, "narrow-accumulator", "narrow", evidence_of(2, 1));
    EXPECT_EQ(fail.verdict, harness::Verdict::fail);
    EXPECT_EQ(fail.violated_class, "C-PRC-01");
    EXPECT_EQ(harness::case_verdict(instance, harness::kUnmatched, "?", evidence_of(2, 1)).signature, "unmatched");
    EXPECT_THROW(harness::case_verdict(instance, "no-such-signature", "?", evidence_of(2, 1)), std::logic_error);
}

// The probes' verdicts and kcs verify's re-judging read one rule
// (spec::figure_holds): a verdict its figure contradicts never leaves the probe.
TEST(CaseVerdict, AVerdictItsFigureContradictsIsAProbeDefect) {
    harness::Instance instance;
    instance.id = "C-PRC-01/matmul/test";
    instance.contract = catalog().find_class("C-PRC-01");  // dot_bound: the figure holds at most its bound
    ASSERT_NE(instance.contract, nullptr);
    EXPECT_THROW(harness::case_verdict(instance, "", "ok", evidence_of(1.5, 1)), std::logic_error);
    EXPECT_THROW(harness::case_verdict(instance, "", "ok", evidence_of(kNaN, 1)), std::logic_error);
    EXPECT_THROW(harness::case_verdict(instance, "narrow-accumulator", "narrow", evidence_of(1, 1)), std::logic_error);
    EXPECT_NO_THROW(harness::case_verdict(instance, "narrow-accumulator", "narrow", evidence_of(kInf, 1)));

    harness::Instance exactness = instance;  // exact_when_representable: at least the required bits
    exactness.contract = catalog().find_class("C-PRC-03");
    ASSERT_NE(exactness.contract, nullptr);
    ASSERT_EQ(exactness.contract->tolerance.model, "exact_when_representable");
    EXPECT_NO_THROW(harness::case_verdict(exactness, "", "ok", evidence_of(24, 24)));
    EXPECT_THROW(harness::case_verdict(exactness, "", "ok", evidence_of(23, 24)), std::logic_error);
}

TEST(FigureDirection, EveryModelSaysWhichWayItsFigureHolds) {
    const auto* exact = spec::find_tolerance_model("exact_when_representable");
    const auto* dot = spec::find_tolerance_model("dot_bound");
    ASSERT_TRUE(exact && dot);
    EXPECT_TRUE(spec::figure_holds(*exact, 24, 24));   // effective precision reaches the required bits
    EXPECT_FALSE(spec::figure_holds(*exact, 23, 24));
    EXPECT_TRUE(spec::figure_holds(*dot, 1, 1));       // an error within its bound
    EXPECT_FALSE(spec::figure_holds(*dot, 1.5, 1));
    for (const auto& model : spec::tolerance_models()) EXPECT_FALSE(spec::figure_holds(model, kNaN, 1)) << model.name;
    EXPECT_TRUE(dot->ratio_figure);
    EXPECT_FALSE(exact->ratio_figure);
}

}  // namespace
}  // namespace kcs::suites::testing
