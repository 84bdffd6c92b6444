// exactness probes: tests written with the probes.
//
// The tolerance models (bitwise_rne, ulp_table, subnormal_policy,
// ieee_special) on known values, then every instance of C-PRC-04, C-CMP-01,
// C-CMP-02 and C-EXC-01 for matmul, reduce_sum, reduce_max and softmax at
// depth smoke: PASS on reference-cpu, FAIL with the catalog's signature on
// the calibration violators that reach these operators.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "../exactness/exactness_common.hpp"
#include "../exactness/special_value_cases.hpp"
#include "../tolerance/bitwise_rne.hpp"
#include "../tolerance/ieee_special.hpp"
#include "../tolerance/subnormal_policy.hpp"
#include "../tolerance/ulp_table.hpp"
#include "probe_test_support.hpp"

namespace kcs::suites {
namespace {

using ref::Format;

// ---------------------------------------------------------------- bitwise_rne

TEST(BitwiseRne, ClassifiesTheCatalogsExamples) {
    // 0x3F818000 is the tie between bf16 0x3F81 (odd) and 0x3F82 (even).
    const double odd_tie = 1 + 0x1p-7 + 0x1p-8;
    EXPECT_EQ(rne_bits(Format::bf16, odd_tie), 0x3F82u);
    EXPECT_EQ(judge_exact_store(Format::bf16, odd_tie, 0x3F82), StoreMismatch::none);
    EXPECT_EQ(judge_exact_store(Format::bf16, odd_tie, 0x3F81), StoreMismatch::toward_at_tie);
    // 0x3F808000: the tie between 0x3F80 (even) and 0x3F81; ties-away gives 0x3F81.
    const double even_tie = 1 + 0x1p-8;
    EXPECT_EQ(judge_exact_store(Format::bf16, even_tie, 0x3F81), StoreMismatch::away_at_tie);
    EXPECT_EQ(judge_exact_store(Format::bf16, -even_tie, 0xBF81), StoreMismatch::away_at_tie);
    EXPECT_EQ(judge_exact_store(Format::bf16, 1 + 0x1p-8 + 0x1p-16, 0x3F81), StoreMismatch::none);
    EXPECT_EQ(judge_exact_store(Format::bf16, 1 + 0x1p-8 + 0x1p-16, 0x3F80), StoreMismatch::toward_zero);
    EXPECT_EQ(judge_exact_store(Format::bf16, 1 + 0x1p-9, 0x3F81), StoreMismatch::away_from_zero);
    EXPECT_EQ(judge_exact_store(Format::bf16, 1 + 0x1p-9, 0x3F83), StoreMismatch::other);
    // f16 overflow: 65520 rounds to inf; 65504 is saturation.
    EXPECT_EQ(rne_bits(Format::f16, 65520), 0x7C00u);
    EXPECT_EQ(judge_exact_store(Format::f16, 65520, 0x7BFF), StoreMismatch::saturation);
    EXPECT_EQ(judge_exact_store(Format::f16, -65520, 0xFBFF), StoreMismatch::saturation);
    EXPECT_EQ(judge_exact_store(Format::f16, 65512, 0x7BFF), StoreMismatch::none);
    EXPECT_EQ(judge_exact_store(Format::f16, NAN, 0x7C00), StoreMismatch::nan_to_inf);
    EXPECT_EQ(judge_exact_store(Format::f16, NAN, 0xFE01), StoreMismatch::none);  // any NaN
}

// bf16 0x3F82 is 1.015625, 0x3F81 1.0078125, 0x3F83 1.0234375.
TEST(BitwiseRne, JudgesStoresNextToTheExpectedValue) {
    // y* below 0x3F82: RN rounded up, so truncation of v gives 0x3F81.
    EXPECT_EQ(judge_store_near(Format::bf16, 1.014, 1e-4, 0x3F82, 0x3F81), StoreMismatch::toward_zero);
    EXPECT_EQ(judge_store_near(Format::bf16, -1.014, 1e-4, 0xBF82, 0xBF81), StoreMismatch::toward_zero);
    EXPECT_EQ(judge_store_near(Format::bf16, 1.017, 1e-4, 0x3F82, 0x3F83), StoreMismatch::away_from_zero);
    EXPECT_EQ(judge_store_near(Format::bf16, 1.014, 1e-4, 0x3F82, 0x3F84), StoreMismatch::other);
    EXPECT_EQ(judge_store_near(Format::bf16, 1.014, 1e-4, 0x3F82, 0xBF82), StoreMismatch::other);
    // y* above 0x3F82 by more than E: every v rounds down to it, truncating
    // v gives 0x3F82 itself, so 0x3F81 is no rounding of v.
    EXPECT_EQ(judge_store_near(Format::bf16, 1.017, 1e-4, 0x3F82, 0x3F81), StoreMismatch::other);
    // Likewise 0x3F83 from a v below 0x3F82 is not a rounding away.
    EXPECT_EQ(judge_store_near(Format::bf16, 1.014, 1e-4, 0x3F82, 0x3F83), StoreMismatch::other);
    // Within E of the value itself: either direction may be a rounding of v.
    EXPECT_EQ(judge_store_near(Format::bf16, 1.015625 + 1e-5, 1e-4, 0x3F82, 0x3F81), StoreMismatch::toward_zero);
    EXPECT_TRUE(rounds_away_from_zero(Format::bf16, 1.014, 1e-4, 0x3F82));
    EXPECT_FALSE(rounds_away_from_zero(Format::bf16, 1.017, 1e-4, 0x3F82));
    EXPECT_FALSE(rounds_away_from_zero(Format::bf16, 1.015625 - 1e-5, 1e-4, 0x3F82));
    EXPECT_TRUE(rounds_away_from_zero(Format::f16, 65520, 0, 0x7C00));  // overflow to inf
}

TEST(BitwiseRne, NamesTheSignatureTheMismatchesShow) {
    using M = StoreMismatch;
    // Figures where every store RN rounds away was stored toward zero.
    const auto signature = [](std::set<M> kinds, std::size_t away = 10, std::size_t cut = 10) {
        spec::Json figures;
        return rounding_signature({std::move(kinds), away, cut}, figures);
    };
    EXPECT_EQ(signature({M::toward_zero}), "truncation");
    EXPECT_EQ(signature({M::toward_zero, M::saturation, M::nan_to_inf}), "truncation");
    EXPECT_EQ(signature({M::away_at_tie}), "ties-away");
    EXPECT_EQ(signature({M::saturation}), "overflow-saturation");
    EXPECT_EQ(signature({M::nan_to_inf}), "nan-to-inf");
    EXPECT_EQ(signature({M::toward_zero, M::away_from_zero}), "unmatched");
    EXPECT_EQ(signature({M::away_at_tie, M::toward_zero}), "unmatched");
    // The catalog's example is a tie rounded down beside non-ties rounded
    // down; ties rounded down alone (round-half-down) are not truncation.
    EXPECT_EQ(signature({M::toward_zero, M::toward_at_tie}), "truncation");
    EXPECT_EQ(signature({M::toward_at_tie}), "unmatched");
    // Truncation changes every store RN rounds away: half of them is the least.
    EXPECT_EQ(signature({M::toward_zero}, 10, 5), "truncation");
    EXPECT_EQ(signature({M::toward_zero}, 10, 4), "unmatched");
}

TEST(ExactSums, RequireEveryPartialSumExactInF32) {
    const std::vector<double> tie{1, 0x1p-11, 0x1p-21};
    EXPECT_TRUE(exactness::exact_in_f32_any_order(tie));
    const std::vector<double> too_wide{1, 0x1p-24};
    EXPECT_FALSE(exactness::exact_in_f32_any_order(too_wide));
    // Mixed signs: partial sums stay within the larger of the two one-signed sums.
    const std::vector<double> difference{0x1p-126 + 0x1p-149 * 5, -0x1p-126};
    EXPECT_TRUE(exactness::exact_in_f32_any_order(difference));
    const std::vector<double> below_f32{0x1p-150};
    EXPECT_FALSE(exactness::exact_in_f32_any_order(below_f32));
    EXPECT_EQ(exactness::value_at_or_below(Format::bf16, -20.79), -20.875);
    EXPECT_EQ(exactness::value_at_or_above(Format::bf16, -20.79), -20.75);
}

// ---------------------------------------------------------------- ulp_table

TEST(UlpTable, MeasuresAgainstTheCorrectlyRoundedResult) {
    EXPECT_EQ(table_error(Format::f32, 0x3F800001, 1.0, false), 1);
    EXPECT_EQ(table_error(Format::f32, 0x3F800000, 1.0, false), 0);
    // A flushed subnormal result: huge under preserve, accepted under flush.
    const double subnormal = 0x1p-140;
    EXPECT_EQ(table_error(Format::f32, 0x00000000, subnormal, false), 512);
    EXPECT_EQ(table_error(Format::f32, 0x80000000, subnormal, true), 0);
    EXPECT_TRUE(std::isinf(table_error(Format::f32, 0x7FC00000, 1.0, false)));
}

TEST(UlpTable, SortsInputsIntoTheClassesSubdomains) {
    EXPECT_EQ(ulp_subdomain(Format::f32, "exp", -100, 0x1p-144, false), UlpSubdomain::underflow);
    EXPECT_EQ(ulp_subdomain(Format::f32, "exp", -110, 0, false), UlpSubdomain::underflow);
    EXPECT_EQ(ulp_subdomain(Format::f32, "exp", 88.5, 0x1.8p127, false), UlpSubdomain::overflow_edge);
    EXPECT_EQ(ulp_subdomain(Format::f32, "exp", 0, 1, false), UlpSubdomain::small_argument);
    EXPECT_EQ(ulp_subdomain(Format::f32, "log", 1.01, 0.00995, false), UlpSubdomain::small_argument);
    EXPECT_EQ(ulp_subdomain(Format::f32, "exp", -30, 9.4e-14, false), UlpSubdomain::core);
}

// Each C-CMP-01 signature is chosen by the evidence its selected_when
// states (spec/v1/classes/C-CMP-01.yaml), and none by default.
std::string signature_of(const UlpTally& tally) {
    spec::Json figures;
    return approximation_signature(tally, Format::f32, figures);
}

// Core binades 0..9 of |x| with err 1 ulp, then `failing` ones overwritten.
UlpTally core_of_ten(const std::map<int, double>& failing) {
    UlpTally t(3);
    for (int e = 0; e <= 9; ++e) t.add(0, std::ldexp(1.5, e), UlpSubdomain::core, 1);
    for (const auto& [e, error] : failing) t.add(0, std::ldexp(1.5, e), UlpSubdomain::core, error);
    return t;
}

TEST(UlpTable, SubdomainConcentrationNeedsEveryFailureAtAnEdge) {
    UlpTally edge(3);
    edge.add(0, -30, UlpSubdomain::core, 1);
    edge.add(1, -100, UlpSubdomain::underflow, 1e6);
    EXPECT_EQ(signature_of(edge), "subdomain-concentration");
    // The highest core binades, and the binades of subnormal arguments, are edges too.
    EXPECT_EQ(signature_of(core_of_ten({{9, 50}, {8, 20}})), "subdomain-concentration");
    UlpTally subnormal_x = core_of_ten({});
    subnormal_x.add(0, 0x1p-140, UlpSubdomain::core, 1e7);  // log of a flushed subnormal argument
    subnormal_x.add(0, 0x1p-131, UlpSubdomain::core, 1e7);
    subnormal_x.add(0, 0x1p-127, UlpSubdomain::core, 1e7);
    EXPECT_EQ(signature_of(subnormal_x), "subdomain-concentration");
}

TEST(UlpTable, ArgumentGrowthNeedsThreeGrowingBinades) {
    UlpTally growth(3);
    for (int e = 2; e <= 6; ++e) growth.add(0, std::ldexp(-1.5, e), UlpSubdomain::core, std::ldexp(1.0, e));
    EXPECT_EQ(signature_of(growth), "argument-growth");
    EXPECT_EQ(signature_of(core_of_ten({{7, 4}, {8, 8}, {9, 16}})), "argument-growth");
}

// The vacuous match: one failing binade (or two) at the top of the range
// "grows" from itself to the end, but a growth fit over so few binades says
// nothing; the failures sit at an edge.
TEST(UlpTable, AGrowthFitOverASingleBinadeIsNotArgumentGrowth) {
    EXPECT_EQ(signature_of(core_of_ten({{9, 100}})), "subdomain-concentration");
    EXPECT_EQ(signature_of(core_of_ten({{8, 10}, {9, 100}})), "subdomain-concentration");
}

TEST(UlpTable, UniformExcessNeedsMostBinadesOfTheCore) {
    UlpTally uniform(3);
    for (int e = 2; e <= 6; ++e) uniform.add(0, std::ldexp(-1.5, e), UlpSubdomain::core, 40);
    EXPECT_EQ(signature_of(uniform), "uniform-excess");
    EXPECT_EQ(signature_of(core_of_ten({{1, 9}, {2, 9}, {3, 9}, {4, 9}, {5, 9}, {6, 9}})), "uniform-excess");
}

// A FAIL only where results or arguments are subnormal is a flush's, which
// C-CMP-02 judges; one failing normal binade, or the overflow edge, is not.
TEST(UlpTable, FailuresOnlyAtSubnormalsAreTold) {
    UlpTally flushed = core_of_ten({});
    flushed.add(0, -100, UlpSubdomain::underflow, 1e6);
    flushed.add(0, 0x1p-140, UlpSubdomain::core, 1e7);
    EXPECT_TRUE(failures_only_at_subnormals(flushed, Format::f32));
    UlpTally f16_argument = core_of_ten({});
    f16_argument.add(0, 0x1p-20, UlpSubdomain::core, 1e3);  // subnormal in f16, normal in f32
    EXPECT_TRUE(failures_only_at_subnormals(f16_argument, Format::f16));
    EXPECT_FALSE(failures_only_at_subnormals(f16_argument, Format::f32));
    UlpTally also_core = core_of_ten({{5, 9}});
    also_core.add(0, -100, UlpSubdomain::underflow, 1e6);
    EXPECT_FALSE(failures_only_at_subnormals(also_core, Format::f32));
    UlpTally overflow = core_of_ten({});
    overflow.add(0, 88.7, UlpSubdomain::overflow_edge, 65);
    EXPECT_FALSE(failures_only_at_subnormals(overflow, Format::f32));
    EXPECT_FALSE(failures_only_at_subnormals(core_of_ten({}), Format::f32)) << "nothing failed";
}

// Failures in a few middle binades fit no signature's evidence: unmatched,
// with the figures that were tested, never the first signature.
TEST(UlpTable, EvidenceThatFitsNoSignatureIsUnmatched) {
    const UlpTally middle = core_of_ten({{4, 30}, {5, 30}});
    spec::Json figures;
    EXPECT_EQ(approximation_signature(middle, Format::f32, figures), "unmatched");
    EXPECT_EQ(figures.at("core_binades_seen"), 10);
    EXPECT_EQ(figures.at("core_binades_failing"), 2);
    EXPECT_EQ(figures.at("core_binades_failing_away_from_the_edges"), 2);
    EXPECT_EQ(figures.at("growth_binades"), 0);
    UlpTally fine(3);
    fine.add(0, -30, UlpSubdomain::core, 3);
    EXPECT_EQ(signature_of(fine), "");
}

// ---------------------------------------------------------------- subnormal_policy

TEST(SubnormalPolicy, ClassifiesDistinguishingElements) {
    const double sub = 0x1p-140;
    EXPECT_EQ(classify_exact(Format::f32, 0x00000200, sub, 0), SubnormalOutcome::pres);
    EXPECT_EQ(classify_exact(Format::f32, 0x80000000, sub, 0), SubnormalOutcome::flush);  // a zero of either sign
    EXPECT_EQ(classify_exact(Format::f32, 0x00000201, sub, 0), SubnormalOutcome::neither);
    EXPECT_EQ(classify_kind(Format::f32, 0x00000201, sub), SubnormalOutcome::pres);
    EXPECT_EQ(classify_kind(Format::f32, 0x80000201, sub), SubnormalOutcome::neither);
    EXPECT_EQ(classify_kind(Format::f32, 0x00000000, sub), SubnormalOutcome::flush);
    EXPECT_FALSE(distinguishing(0.0, -0.0));
}

TEST(SubnormalPolicy, TellsFtzFromDazAndMixedFlush) {
    using S = SubnormalSide;
    using O = SubnormalOutcome;
    SubnormalCounts honoured;
    honoured.add(S::output, O::pres);
    honoured.add(S::input, O::pres);
    EXPECT_EQ(judge_subnormal_policy(honoured, "preserve").signature, "");
    EXPECT_EQ(judge_subnormal_policy(honoured, "flush").signature, "mixed-flush");

    SubnormalCounts ftz = honoured;
    ftz.add(S::output, O::flush);
    EXPECT_EQ(judge_subnormal_policy(ftz, "preserve").signature, "ftz");

    SubnormalCounts daz = honoured;
    daz.add(S::input, O::flush);
    EXPECT_EQ(judge_subnormal_policy(daz, "preserve").signature, "daz");

    SubnormalCounts both_only;  // reduce_max: subnormal inputs and results only
    both_only.add(S::both, O::flush);
    EXPECT_EQ(judge_subnormal_policy(both_only, "preserve").signature, "ftz");
    both_only.add(S::output, O::pres);
    EXPECT_EQ(judge_subnormal_policy(both_only, "preserve").signature, "daz");

    SubnormalCounts flushed;
    flushed.add(S::output, O::flush);
    flushed.add(S::input, O::flush);
    EXPECT_EQ(judge_subnormal_policy(flushed, "flush").signature, "");
    flushed.add(S::input, O::neither);
    EXPECT_EQ(judge_subnormal_policy(flushed, "flush").signature, "unmatched");
}

// ---------------------------------------------------------------- ieee_special

TEST(IeeeSpecial, JudgesElementsByClass) {
    using E = SpecialExpectation;
    using M = SpecialMismatch;
    EXPECT_EQ(judge_special(E::nan, Format::f32, 0x7FC00000), M::none);
    EXPECT_EQ(judge_special(E::nan, Format::f32, 0x3F800000), M::nan_dropped);
    EXPECT_EQ(judge_special(E::nan, Format::f32, 0x7F800000), M::nan_dropped);
    EXPECT_EQ(judge_special(E::positive_inf, Format::f16, 0x7C00), M::none);
    EXPECT_EQ(judge_special(E::positive_inf, Format::f16, 0x7BFF), M::infinity_lost);
    EXPECT_EQ(judge_special(E::positive_inf, Format::f16, 0xFC00), M::infinity_lost);
    EXPECT_EQ(judge_special(E::negative_inf, Format::f16, 0x7E00), M::unmatched);
    EXPECT_EQ(judge_special(E::finite, Format::bf16, 0x7FC0), M::nan_created);
    EXPECT_EQ(judge_special(E::masked_zero, Format::f32, 0x80000000), M::none);
    EXPECT_EQ(judge_special(E::masked_zero, Format::f32, 0x00000001), M::masked_leak);
    EXPECT_EQ(judge_special(E::masked_row_nan, Format::f32, 0x3D800000), M::masked_leak);
    EXPECT_EQ(judge_special(E::masked_row_zero, Format::f32, 0x00000000), M::none);
}

TEST(IeeeSpecial, MatchesMaskedLeakBeforeTheOthers) {
    using M = SpecialMismatch;
    EXPECT_EQ(special_signature({M::nan_created, M::masked_leak}), "masked-leak");
    EXPECT_EQ(special_signature({M::nan_dropped}), "nan-dropped");
    EXPECT_EQ(special_signature({M::nan_created}), "nan-created");
    EXPECT_EQ(special_signature({M::infinity_lost}), "infinity-lost");
    EXPECT_EQ(special_signature({M::unmatched}), "unmatched");
    // Outside masks, two mechanisms at once are no one signature's pattern.
    EXPECT_EQ(special_signature({M::nan_created, M::nan_dropped}), "unmatched");
    EXPECT_EQ(special_signature({M::infinity_lost, M::unmatched}), "unmatched");
}

// ---------------------------------------------------------------- probes on the adapters

struct ClassOperators {
    std::string class_id;
    std::vector<std::string> operators;
};

std::vector<std::string> configs_of(const std::string& op) {
    if (op == "matmul") return {"f32xf32-f32", "f16xf16-f32", "f16xf16-f16", "bf16xbf16-f32", "bf16xbf16-bf16"};
    if (op == "reduce_max") return {"f32-f32", "f16-f16", "bf16-bf16"};
    if (op == "gather") return {"f32xi32-f32", "f32xi64-f32", "f16xi32-f16", "f16xi64-f16", "bf16xi32-bf16", "bf16xi64-bf16"};
    return {"f32-f32", "f16-f16", "f16-f32", "bf16-bf16", "bf16-f32"};  // reduce_sum, softmax
}

// Every instance of the family's classes on the operators with probes.
std::vector<std::string> family_instances() {
    const std::vector<ClassOperators> scope{
        {"C-PRC-04", {"matmul", "reduce_sum", "softmax"}},
        {"C-CMP-01", {"softmax"}},
        {"C-CMP-02", {"matmul", "reduce_sum", "reduce_max", "softmax", "gather"}},
        {"C-EXC-01", {"matmul", "reduce_sum", "reduce_max", "softmax", "gather"}},
    };
    std::vector<std::string> ids;
    for (const auto& c : scope)
        for (const auto& op : c.operators)
            for (const auto& config : configs_of(op))
                ids.push_back(testing::instance_id(c.class_id, op, config));
    return ids;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param.substr(3);  // drop "v1/"
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class ExactnessOnReferenceCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(ExactnessOnReferenceCpu, Passes) {
    testing::expect_conforming(testing::run_instance(GetParam(), "reference-cpu"));
}

INSTANTIATE_TEST_SUITE_P(Exactness, ExactnessOnReferenceCpu, ::testing::ValuesIn(family_instances()), test_name);

struct ViolatorCase {
    std::string instance;
    std::string violation;
    std::string class_id;  // empty: the violation does not reach this instance, PASS
    std::string signature;
};

std::string violator_name(const ::testing::TestParamInfo<ViolatorCase>& info) {
    std::string name = info.param.violation + "_" + info.param.instance.substr(3);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class ExactnessViolator : public ::testing::TestWithParam<ViolatorCase> {};

TEST_P(ExactnessViolator, FailsWithItsSignature) {
    const auto& c = GetParam();
    const auto run = testing::run_instance(c.instance, "calibration", c.violation);
    if (c.class_id.empty()) return testing::expect_conforming(run);
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    for (const auto& record : run.result.cases) {
        EXPECT_EQ(record.result.violated_class, c.class_id) << testing::describe(run.result);
        EXPECT_EQ(record.result.signature, c.signature) << testing::describe(run.result);
    }
}

// C-CMP-02's calibration on gather: a copy through FTZ/DAZ float registers
// reads its subnormal inputs as zero (daz).
INSTANTIATE_TEST_SUITE_P(FtzDazGather, ExactnessViolator,
                         ::testing::Values(ViolatorCase{"v1/C-CMP-02/gather/f32xi64-f32/shapes-sweep", "ftz-daz", "C-CMP-02",
                                                        "daz"},
                                           ViolatorCase{"v1/C-CMP-02/gather/f16xi32-f16/shapes-sweep", "ftz-daz", "C-CMP-02",
                                                        "daz"},
                                           ViolatorCase{"v1/C-CMP-02/gather/bf16xi32-bf16/shapes-sweep", "ftz-daz",
                                                        "C-CMP-02", "daz"}),
                         violator_name);

// C-CMP-02's calibration on matmul: large-tile-ftz flushes only from 32 up.
INSTANTIATE_TEST_SUITE_P(
    LargeTileFtz, ExactnessViolator,
    ::testing::Values(ViolatorCase{"v1/C-CMP-02/matmul/f32xf32-f32/shapes-sweep", "large-tile-ftz", "C-CMP-02", "ftz"},
                      ViolatorCase{"v1/C-CMP-02/matmul/f16xf16-f16/shapes-sweep", "large-tile-ftz", "C-CMP-02", "ftz"},
                      ViolatorCase{"v1/C-CMP-02/matmul/f16xf16-f32/shapes-sweep", "large-tile-ftz", "C-CMP-02", "daz"},
                      ViolatorCase{"v1/C-CMP-02/matmul/bf16xbf16-bf16/shapes-sweep", "large-tile-ftz", "C-CMP-02",
                                   "ftz"}),
    violator_name);

// The shapes sweep is what catches it: every pattern at the small shape
// keeps the claim, and the same patterns at the large one flush (by_batch,
// per shape): matmul at 8x8x8 and 33x33x33, reduce_sum and reduce_max at
// 8x16 and 33x33 (the smoke shapes), softmax at 7x19 and 8x64 (quick's).
struct ShapeFlushCase {
    std::string instance, small, large, depth = "smoke";
};

void PrintTo(const ShapeFlushCase& c, std::ostream* os) { *os << c.instance << " at " << c.depth; }

class SubnormalShapes : public ::testing::TestWithParam<ShapeFlushCase> {};

TEST_P(SubnormalShapes, LargeTileFtzFlushesOnlyAtTheLargerShapes) {
    const auto& c = GetParam();
    const auto run = testing::run_instance(c.instance, "calibration", "large-tile-ftz", c.depth);
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    const spec::Json& by_batch = run.result.cases.front().result.evidence.details.at("by_batch");
    std::size_t small = 0, large = 0;
    for (const auto& [name, counts] : by_batch.items()) {
        const bool flushed = counts.dump().find("\"flush\"") != std::string::npos;
        if (name.ends_with(c.small)) {
            ++small;
            EXPECT_FALSE(flushed) << name << ": " << counts.dump();
        }
        if (name.ends_with(c.large)) {
            ++large;
            EXPECT_TRUE(flushed) << name << ": " << counts.dump();
        }
    }
    EXPECT_GE(small, 1u) << by_batch.dump();
    EXPECT_EQ(small, large) << by_batch.dump();
}

INSTANTIATE_TEST_SUITE_P(
    ByOperator, SubnormalShapes,
    ::testing::Values(ShapeFlushCase{"v1/C-CMP-02/matmul/f32xf32-f32/shapes-sweep", "[8x8x8]", "[33x33x33]"},
                      ShapeFlushCase{"v1/C-CMP-02/reduce_sum/f32-f32/shapes-sweep", "[8x16]", "[33x33]"},
                      ShapeFlushCase{"v1/C-CMP-02/reduce_max/bf16-bf16/shapes-sweep", "[8x16]", "[33x33]"},
                      ShapeFlushCase{"v1/C-CMP-02/softmax/f16-f16/shapes-sweep", "[7x19]", "[8x64]", "quick"}),
    [](const ::testing::TestParamInfo<ShapeFlushCase>& info) {
        std::string name = info.param.instance.substr(10);  // drop "v1/C-CMP-02/"
        for (char& ch : name)
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
        return name;
    });

// The row operators run every probe row at every shape of the quick sweep:
// reduce_sum's batches are ceil(probe rows / rows) calls per shape, each
// named by its shape, and every shape of the catalog appears (the norms'
// two probes at each; attention's equal-scores probe, [S, T, D]; the
// pointwise operators' probe elements in calls of N, [N]).
TEST(SubnormalSweep, EveryShapeOfTheSweepRuns) {
    const std::pair<std::string, std::string> cases[] = {{"reduce_sum", "f32-f32"},
                                                         {"reduce_max", "f32-f32"},
                                                         {"softmax", "f32-f32"},
                                                         {"layernorm", "f32xf32xf32-f32"},
                                                         {"rmsnorm", "bf16xbf16-f32"},
                                                         {"attention", "f16xf16xf16-f32"},
                                                         {"unary.exp", "bf16-bf16"},
                                                         {"elementwise.mul_add", "f16xf16xf16-f16"},
                                                         {"cast", "f32-f16"}};
    for (const auto& [op, config] : cases) {
        const auto run = testing::run_instance(testing::instance_id("C-CMP-02", op, config), "reference-cpu", "",
                                               "quick");
        ASSERT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
        const auto shapes = run.result.instance->parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
        ASSERT_GE(shapes.size(), 6u) << op;
        const spec::Json& by_batch = run.result.cases.front().result.evidence.details.at("by_batch");
        for (const auto& s : shapes) {
            const std::string text = exactness::shape_text(s);
            bool ran = false;
            for (const auto& item : by_batch.items()) ran = ran || item.key().ends_with(text);
            EXPECT_TRUE(ran) << op << " " << text << ": " << by_batch.dump();
        }
    }
}

// C-EXC-01 on matmul meets every row probe with every column probe at each
// shape of the catalog's sweep: the elements judged are those of every
// call, ceil(R / M) x ceil(C / N) calls of M x N outputs per shape.
TEST(SpecialValueShapes, MatmulJudgesEveryProbePairAtEveryShape) {
    const auto run = testing::run_instance(testing::instance_id("C-EXC-01", "matmul", "f16xf16-f32"), "reference-cpu",
                                           "", "quick");
    ASSERT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
    const auto shapes =
        run.result.instance->parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
    ASSERT_GE(shapes.size(), 5u);
    const std::size_t columns = 11;  // matmul_columns in special_values.cpp
    std::size_t expected = 0;
    for (const auto& s : shapes) {
        const auto M = static_cast<std::size_t>(s[0]), N = static_cast<std::size_t>(s[2]);
        const auto rows =
            special_cases::singles_and_pairs(special_cases::special_values_of(Format::f16), s[1]).size();
        expected += (rows + M - 1) / M * M * ((columns + N - 1) / N) * N;
    }
    for (const auto& c : run.result.cases) EXPECT_EQ(c.result.evidence.judged.count, expected);
}

// C-EXC-01 on the row operators runs its probe rows at every shape [rows,
// L] of the catalog's sweep, `rows` to a call: reduce_sum judges one output
// per row of ceil(17 / rows) calls at each shape, softmax every element.
TEST(SpecialValueShapes, RowOperatorsJudgeEveryProbeRowAtEveryShape) {
    for (const char* op : {"reduce_sum", "softmax"}) {
        const auto run = testing::run_instance(testing::instance_id("C-EXC-01", op, "f32-f32"), "reference-cpu", "",
                                               "quick");
        ASSERT_EQ(run.verdict, harness::Verdict::pass) << op << ": " << testing::describe(run.result);
        const auto shapes =
            run.result.instance->parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
        ASSERT_GE(shapes.size(), 5u);
        const std::size_t lines = std::string(op) == "reduce_sum" ? 17 : 23;  // singles_and_pairs; softmax_lines
        std::size_t expected = 0;
        for (const auto& s : shapes) {
            const auto rows = static_cast<std::size_t>(s[0]), length = static_cast<std::size_t>(s[1]);
            expected += (lines + rows - 1) / rows * rows * (std::string(op) == "reduce_sum" ? 1 : length);
        }
        for (const auto& c : run.result.cases) EXPECT_EQ(c.result.evidence.judged.count, expected) << op;
    }
}

// C-EXC-01's calibration: nan-dropping-max fails reduce_max with nan-dropped.
INSTANTIATE_TEST_SUITE_P(NanDroppingMax, ExactnessViolator,
                         ::testing::Values(ViolatorCase{"v1/C-EXC-01/reduce_max/f32-f32/shapes-sweep", "nan-dropping-max",
                                                        "C-EXC-01", "nan-dropped"},
                                           ViolatorCase{"v1/C-EXC-01/reduce_max/f16-f16/shapes-sweep", "nan-dropping-max",
                                                        "C-EXC-01", "nan-dropped"},
                                           ViolatorCase{"v1/C-EXC-01/reduce_max/bf16-bf16/shapes-sweep", "nan-dropping-max",
                                                        "C-EXC-01", "nan-dropped"},
                                           ViolatorCase{"v1/C-EXC-01/reduce_max/f32-f32/shapes-sweep",
                                                        "vector-nan-dropping-max", "C-EXC-01", "nan-dropped"}),
                         violator_name);

// vector-nan-dropping-max drops NaN only where the row count or length is
// 32 or more: every probe row that misses ran at such a shape, and the rows
// of the smaller shapes all keep their NaN.
TEST(SpecialValueShapes, VectorNanDroppingMaxFailsOnlyAtTheLargerShapes) {
    const auto run = testing::run_instance("v1/C-EXC-01/reduce_max/f32-f32/shapes-sweep", "calibration",
                                           "vector-nan-dropping-max", "quick");
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    const spec::Json& by_probe = run.result.cases.front().result.evidence.details.at("mismatches_by_probe");
    ASSERT_FALSE(by_probe.empty());
    for (const auto& [probe, count] : by_probe.items()) {
        const auto open = probe.rfind('['), x = probe.rfind('x');
        ASSERT_TRUE(open != std::string::npos && x != std::string::npos && x > open) << probe;
        const long rows = std::stol(probe.substr(open + 1)), length = std::stol(probe.substr(x + 1));
        EXPECT_GE(std::max(rows, length), 32) << probe;
    }
}

// bf16-truncate is calibrated on cast; it reaches every bf16 store, so the
// bf16-output configurations of matmul, reduce_sum and softmax catch it too;
// the f16-output configuration passes, and one with an f32 output has no
// narrowing store (NOT_APPLICABLE).
INSTANTIATE_TEST_SUITE_P(
    Bf16Truncate, ExactnessViolator,
    ::testing::Values(
        ViolatorCase{"v1/C-PRC-04/matmul/bf16xbf16-bf16/shapes-sweep", "bf16-truncate", "C-PRC-04", "truncation"},
        ViolatorCase{"v1/C-PRC-04/reduce_sum/bf16-bf16/shapes-sweep", "bf16-truncate", "C-PRC-04", "truncation"},
        ViolatorCase{"v1/C-PRC-04/softmax/bf16-bf16/shapes-sweep", "bf16-truncate", "C-PRC-04", "truncation"},
        ViolatorCase{"v1/C-PRC-04/matmul/bf16xbf16-f32/shapes-sweep", "bf16-truncate", "", ""},
        ViolatorCase{"v1/C-PRC-04/reduce_sum/f16-f16/shapes-sweep", "bf16-truncate", "", ""}),
    violator_name);

// ftz-daz is calibrated on elementwise and unary; it flushes every load and
// store of these operators as well. Where a configuration has output-side
// probes the signature is ftz; f16 inputs with an f32 output have none (no
// product or sum of f16 values is an f32 subnormal), so only daz shows.
std::vector<ViolatorCase> ftz_daz_cases() {
    std::vector<ViolatorCase> cases;
    for (const std::string op : {"matmul", "reduce_sum", "reduce_max", "softmax"})
        for (const auto& config : configs_of(op)) {
            const bool input_side_only =
                (op == "matmul" || op == "reduce_sum") && config.starts_with("f16") && config.ends_with("-f32");
            cases.push_back({testing::instance_id("C-CMP-02", op, config), "ftz-daz", "C-CMP-02",
                             input_side_only ? "daz" : "ftz"});
        }
    // C-CMP-01 sees it too: softmax's exponentials that round to f32 or bf16
    // subnormals come back zero under a preserve claim (underflow sub-domain).
    cases.push_back({"v1/C-CMP-01/softmax/f32-f32/shapes-sweep", "ftz-daz", "C-CMP-01", "subdomain-concentration"});
    cases.push_back({"v1/C-CMP-01/softmax/bf16-bf16/shapes-sweep", "ftz-daz", "C-CMP-01", "subdomain-concentration"});
    return cases;
}
INSTANTIATE_TEST_SUITE_P(FtzDaz, ExactnessViolator, ::testing::ValuesIn(ftz_daz_cases()), violator_name);

// Primary cause (SPEC.md section 5): C-PRC-04 on unary judges each store
// against the kernel's own f32 result too. biased-log's f32 log is off by
// 128 to 256 ulp everywhere, yet each bf16 store is the correct rounding of
// its own f32 value: PASS, the stores that differ from RN_out(y*) counted
// as explained upstream (C-CMP-01's to judge). Without the comparison
// they were a C-PRC-04 FAIL (the echo of a real library's log).
TEST(PrimaryCause, AnInaccurateFunctionWhoseStoresRoundItsOwnResultPassesConversionRounding) {
    const auto run = testing::run_instance("v1/C-PRC-04/unary.log/bf16-bf16/shapes-sweep", "calibration", "biased-log", "quick");
    ASSERT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
    std::uint64_t explained = 0;
    for (const auto& c : run.result.cases) {
        const auto& details = c.result.evidence.details;
        EXPECT_EQ(details.at("own_f32_result"), "compared: the f32-f32 configuration on the same values");
        if (details.contains("explained_upstream"))
            for (const auto& [reason, n] : details.at("explained_upstream").items()) explained += n.get<std::uint64_t>();
    }
    EXPECT_GT(explained, 0u) << "no store differed from RN_out(y*): the test shows nothing";
}

// The same comparison keeps a real store fault: bf16-truncate's stores are
// no rounding of its own (accurate) f32 results, so the FAIL stays, and it
// names what its check (b) comparisons assumed.
TEST(PrimaryCause, ATruncatingStoreStillFailsBesideItsOwnF32Result) {
    const auto run = testing::run_instance("v1/C-PRC-04/unary.log/bf16-bf16/shapes-sweep", "calibration", "bf16-truncate");
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.signature, "truncation");
        EXPECT_FALSE(c.result.assumes.empty()) << "every mismatch is check (b)'s";
        EXPECT_FALSE(c.result.evidence.details.contains("explained_upstream"));
    }
}

}  // namespace
}  // namespace kcs::suites
