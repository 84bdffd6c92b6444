// Signatures chosen by their evidence: for each class, the function that
// states its signatures' selected_when, shown one pattern per signature,
// and the patterns no signature describes (unmatched, never the first).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../pointwise/contraction_signature.hpp"
#include "../ordering/gather_problems.hpp"
#include "../precision/precision_signatures.hpp"
#include "../accuracy/store_judging.hpp"
#include "../tolerance/exact_when_representable.hpp"
#include "../tolerance/ieee_special.hpp"
#include "kcs/suites/operator_io.hpp"
#include "probe_test_support.hpp"

namespace kcs::suites::testing {
namespace {

// ---- C-PRC-01 ---------------------------------------------------------------

using precision::AccumulatorPoint;

std::string accumulator(const std::vector<AccumulatorPoint>& sweep) {
    spec::Json figures;
    return precision::accumulator_signature(sweep, figures);
}

TEST(SignatureSelection, AccumulatorPassesWhenNothingFailed) {
    EXPECT_EQ(accumulator({{64}, {256}, {1024}}), "");
}

// A narrower accumulator's error grows with K: once past the bound, every
// longer reduction is too.
TEST(SignatureSelection, NarrowAccumulatorFailsFromItsFirstKOn) {
    spec::Json figures;
    EXPECT_EQ(precision::accumulator_signature({{64}, {256, 3}, {1024, 40}, {4096, 300}}, figures),
              "narrow-accumulator");
    EXPECT_EQ(figures.at("failing_K"), spec::Json::array({256, 1024, 4096}));
    EXPECT_TRUE(figures.at("fails_at_every_larger_K").get<bool>());
    // The statistical face: every element in bound, more noise than the
    // declared accumulator makes, at every K.
    EXPECT_EQ(accumulator({{64, 0, false, true, false}, {256, 0, false, true, false}}), "narrow-accumulator");
}

// One small-K failure that the longer reductions do not repeat is not the
// width of an accumulator: unmatched, with the figures.
TEST(SignatureSelection, AFailureThatDoesNotPersistIsUnmatched) {
    spec::Json figures;
    EXPECT_EQ(precision::accumulator_signature({{64, 2}, {256}, {1024}, {4096}}, figures), "unmatched");
    EXPECT_EQ(figures.at("failing_K"), spec::Json::array({64}));
    EXPECT_FALSE(figures.at("fails_at_every_larger_K").get<bool>());
    EXPECT_EQ(accumulator({{64, 0, false, true, false}, {256}}), "unmatched");
}

TEST(SignatureSelection, AStalledSumOfOnesAtTheFirstFailingK) {
    EXPECT_EQ(accumulator({{64}, {4096, 10, true}}), "stalled-sum-of-ones");
    // Read at the smallest failing K: growth before the stall is a narrow accumulator.
    EXPECT_EQ(accumulator({{64, 5}, {4096, 10, true}}), "narrow-accumulator");
}

TEST(SignatureSelection, BiasedRoundingIsTheMeanAlone) {
    EXPECT_EQ(accumulator({{64, 0, false, false, true}, {256, 0, false, false, true}}), "biased-rounding");
    // A mean beyond its limit beside elements beyond the bound is the width, not the rounding.
    EXPECT_EQ(accumulator({{64, 1, false, false, true}, {256, 4}}), "narrow-accumulator");
}

// ---- C-PRC-02 ---------------------------------------------------------------

using precision::StabilityRole;
using precision::StabilitySet;

std::string stability(const std::vector<StabilitySet>& sets, const std::string& provoked = "nonfinite-where-finite",
                      bool nan_only = false) {
    spec::Json figures;
    return precision::stability_signature(sets, provoked, nan_only, figures);
}

const StabilitySet kPassingBaseline{StabilityRole::baseline};

TEST(SignatureSelection, StabilityPassesWhenEveryCheckHeld) {
    EXPECT_EQ(stability({kPassingBaseline, {StabilityRole::provoking}}), "");
}

// Overflow confined to the rows past exp's threshold, data set 1 clean.
TEST(SignatureSelection, NonfiniteWhereFiniteNeedsACleanBaseline) {
    spec::Json figures;
    const std::vector<StabilitySet> naive{kPassingBaseline, {StabilityRole::provoking, 12, 4, 12}};
    EXPECT_EQ(precision::stability_signature(naive, "nonfinite-where-finite", false, figures), "nonfinite-where-finite");
    EXPECT_TRUE(figures.at("baseline_passes").get<bool>());
    EXPECT_EQ(figures.at("nonfinite_in_provoking_sets").get<int>(), 12);
    // Data set 1 beyond its bound beside the overflow: the kernel is simply
    // wrong, not unguarded; so is a non-finite output on normal(0,1) rows.
    EXPECT_EQ(stability({{StabilityRole::baseline, 0, 0, 3}, {StabilityRole::provoking, 12, 4, 12}}), "unmatched");
    EXPECT_EQ(stability({{StabilityRole::baseline, 0, 0, 0, 1}, {StabilityRole::provoking, 12, 4, 12}}), "unmatched");
    EXPECT_EQ(stability({{StabilityRole::baseline, 1, 1, 1}, {StabilityRole::provoking, 12, 4, 12}}), "unmatched");
}

TEST(SignatureSelection, RowSumDriftIsFiniteRowsMissingOne) {
    EXPECT_EQ(stability({{StabilityRole::baseline, 0, 0, 0, 2}, {StabilityRole::provoking}}), "row-sum-drift");
    // Elements beyond the bound with every row sum in bound: no signature says so.
    EXPECT_EQ(stability({{StabilityRole::baseline, 0, 0, 5}, {StabilityRole::provoking}}), "unmatched");
}

// A one-pass variance makes NaN, only in the large-mean and constant rows.
TEST(SignatureSelection, NegativeVarianceIsNaNInTheLargeMeanRowsOnly) {
    const auto norm = [](const std::vector<StabilitySet>& sets) { return stability(sets, "negative-variance", true); };
    EXPECT_EQ(norm({kPassingBaseline, {StabilityRole::provoking, 40, 40, 40}, {StabilityRole::other}}),
              "negative-variance");
    // An infinity is no negative variance, nor is NaN in the squares-overflowing rows (7).
    EXPECT_EQ(norm({kPassingBaseline, {StabilityRole::provoking, 40, 39, 40}, {StabilityRole::other}}), "unmatched");
    EXPECT_EQ(norm({kPassingBaseline, {StabilityRole::provoking, 40, 40, 40}, {StabilityRole::other, 8, 8, 8}}),
              "unmatched");
}

// ---- C-PRC-03 ---------------------------------------------------------------

std::string compute_precision(const precision::ComputePrecisionFigures& f) {
    spec::Json figures;
    return precision::compute_precision_signature(f, figures);
}

TEST(SignatureSelection, ComputePrecisionPassesWhenEveryProbeIsExact) {
    EXPECT_EQ(compute_precision({0, 24, 24, 0, 0}), "");
}

// TF32: every element whose operand has more than 11 bits is rounded, none is exact.
TEST(SignatureSelection, ReducedInputMantissaIsACleanCut) {
    spec::Json figures;
    EXPECT_EQ(precision::compute_precision_signature({0, 11, 24, 0, 900}, figures), "reduced-input-mantissa");
    EXPECT_EQ(figures.at("p_eff").get<int>(), 11);
    EXPECT_EQ(figures.at("exact_above_p_eff").get<int>(), 0);
    // One wrong element with 12-bit operands lowers p_eff to 11 as well, but
    // wider operands came back exact: no narrower format did that.
    EXPECT_EQ(compute_precision({0, 11, 24, 3000, 1}), "unmatched");
}

TEST(SignatureSelection, RangeCoercionIsTriedFirst) {
    EXPECT_EQ(compute_precision({5, 11, 24, 0, 900}), "range-coercion");
    // Inexact outputs with p_eff meeting its bound: no signature.
    EXPECT_EQ(compute_precision({0, 24, 24, 0, 2}), "unmatched");
}

// The exact elements' operand bits decide whether the inexact ones are a cut.
TEST(SignatureSelection, EffectivePrecisionCountsExactElementsAboveIt) {
    tolerance::EffectivePrecision p(24);
    p.exact(5, 10);
    p.exact(20, 3);
    EXPECT_EQ(p.exact_above(), 0u);  // nothing is wider than p_in
    p.inexact(12);
    EXPECT_EQ(p.value(), 11);
    EXPECT_EQ(p.exact_above(), 3u);
}

// ---- C-PRC-04 ---------------------------------------------------------------

// A store kernel: the bits it stores for the exact value v (bf16).
using StoreKernel = std::function<std::uint32_t(double v)>;

std::uint32_t rn(double v) { return rne_bits(ref::Format::bf16, v); }
std::uint32_t rtz(double v) { return ref::encode(ref::Format::bf16, v, ref::Rounding::toward_zero); }
bool is_tie(double v) {
    const double down = ref::decode(ref::Format::bf16, rtz(v));
    return v != down && std::fabs(v) - std::fabs(down) == std::fabs(ref::decode(ref::Format::bf16, rtz(v) + 1) - v);
}

// The stores a cast probe makes: f32 values of N(0,1) and their larger
// binades, the bf16 ties of kind (a), the overflow threshold and a NaN.
std::vector<double> store_values() {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal;
    std::vector<double> v;
    for (int i = 0; i < 2000; ++i) v.push_back(static_cast<float>(std::ldexp(normal(rng), i % 40)));
    for (const auto& tie : tie_sums_of(ref::Format::bf16)) v.push_back(tie.addends[0] + tie.addends[1]);
    v.push_back(-0x1.fffffep127);
    v.push_back(std::nan(""));
    return v;
}

std::string store_signature(const StoreKernel& kernel, spec::Json& figures) {
    StoreTally tally(ref::Format::bf16);
    std::size_t i = 0;
    for (const double v : store_values()) tally.judge(store(i++, "v", v, ref::Format::bf16, kernel(v)), true);
    EXPECT_GT(tally.mismatches(), 0u);
    return rounding_signature(tally.figures(), figures);
}

std::string store_signature(const StoreKernel& kernel) {
    spec::Json figures;
    return store_signature(kernel, figures);
}

TEST(SignatureSelection, TruncationCutsEveryStoreRnRoundsAway) {
    spec::Json figures;
    EXPECT_EQ(store_signature(rtz, figures), "truncation");
    EXPECT_EQ(figures.at("of_them_toward_zero"), figures.at("stores_rounding_away"));
    EXPECT_GT(figures.at("stores_rounding_away").get<std::size_t>(), 500u);
}

TEST(SignatureSelection, TiesAwayIsWrongAtTiesAlone) {
    EXPECT_EQ(store_signature([](double v) { return is_tie(v) ? rtz(v) + 1 : rn(v); }), "ties-away");
}

TEST(SignatureSelection, OverflowSaturationKeepsTheLargestFinite) {
    EXPECT_EQ(store_signature([](double v) {
                  return std::isinf(ref::decode(ref::Format::bf16, rn(v))) ? rtz(v) : rn(v);
              }),
              "overflow-saturation");
}

TEST(SignatureSelection, NanToInfDropsThePayload) {
    EXPECT_EQ(store_signature([](double v) { return std::isnan(v) ? 0x7F80u : rn(v); }), "nan-to-inf");
}

// An upstream error that leaves a few stores one step low (a value computed
// a little small, then rounded correctly) is not truncation: it misses
// nearly every store that truncation changes.
TEST(SignatureSelection, AFewLowStoresAreNotTruncation) {
    std::size_t n = 0;
    spec::Json figures;
    EXPECT_EQ(store_signature([&](double v) { return ++n % 50 == 0 && rtz(v) != rn(v) ? rtz(v) : rn(v); },
                              figures),
              "unmatched");
    EXPECT_LT(2 * figures.at("of_them_toward_zero").get<std::size_t>(),
              figures.at("stores_rounding_away").get<std::size_t>());
}

// Check (b): v is known only within E of y*. A store one step below RN_out
// where y* lies above it (RN rounded down) is no truncation of any v there.
TEST(SignatureSelection, SampledStoresAreNamedOnlyWhereVCouldLeadThere) {
    StoreTally tally(ref::Format::bf16);
    const double y = 1.017, width = 1e-4;  // RN_out(y) = 0x3F82 = 1.015625, below y
    tally.judge(store(0, "sampled", y, ref::Format::bf16, 0x3F81, width), false);
    spec::Json figures;
    EXPECT_EQ(rounding_signature(tally.figures(), figures), "unmatched");
    EXPECT_EQ(figures.at("stores_rounding_away"), 0);
}

// ---- C-CMP-03 ---------------------------------------------------------------

std::string contraction_of(const contraction::Figures& f) {
    spec::Json figures;
    return contraction::signature(f, figures);
}

TEST(SignatureSelection, ContractionPassesWhenEveryElementIsAllowed) {
    EXPECT_EQ(contraction_of({}), "");
    EXPECT_EQ(contraction_of({.contract_on = true, .fused = 40}), "");  // fusing is allowed under on
}

TEST(SignatureSelection, FusedWhereUnfusedDeclaredIsTheFusedValueUnderOff) {
    EXPECT_EQ(contraction_of({.fused = 40}), "fused-where-unfused-declared");
    // The contraction probes decide first: a fast-math kernel also folds.
    EXPECT_EQ(contraction_of({.fused = 40, .ieee_folded = 3}), "fused-where-unfused-declared");
}

TEST(SignatureSelection, ReassociatedIsNoAllowedEvaluation) {
    EXPECT_EQ(contraction_of({.regrouped = 12}), "reassociated");
    EXPECT_EQ(contraction_of({.contract_on = true, .fused = 5, .regrouped = 12}), "reassociated");
    // Fused and regrouped together under off: no one mechanism.
    EXPECT_EQ(contraction_of({.fused = 5, .regrouped = 12}), "unmatched");
}

TEST(SignatureSelection, FiniteMathFoldingIsEveryIeeeErrorAFolding) {
    EXPECT_EQ(contraction_of({.ieee_folded = 3}), "finite-math-folding");
    EXPECT_EQ(contraction_of({.ieee_folded = 3, .ieee_other = 1}), "unmatched");
    EXPECT_EQ(contraction_of({.ieee_other = 1}), "unmatched");
    EXPECT_EQ(contraction_of({.plain = 2}), "unmatched");
}

// What the IEEE probes return under a finite-math assumption, and what they
// return from an inaccurate kernel (log(1) not +0), which is no folding.
TEST(SignatureSelection, FoldingIsWhatOnlyFiniteMathExplains) {
    using contraction::folded_by_finite_math;
    const auto f32 = [](double v) { return ref::encode(ref::Format::f32, v); };
    const double nan = std::nan("");
    EXPECT_TRUE(folded_by_finite_math(ref::Format::f32, nan, f32(0.0)));         // inf - inf as x - x = 0
    EXPECT_TRUE(folded_by_finite_math(ref::Format::f32, nan, f32(1.25)));        // maximum(1.25, NaN) = 1.25
    EXPECT_TRUE(folded_by_finite_math(ref::Format::f32, -0.0, f32(0.0)));        // tanh(-0) as +0
    EXPECT_TRUE(folded_by_finite_math(ref::Format::f32, 0.0, f32(-0.0)));        // +0 turned into -0
    EXPECT_TRUE(folded_by_finite_math(ref::Format::f32, -HUGE_VAL, f32(HUGE_VAL)));  // rsqrt(-0) as rsqrt(+0)
    EXPECT_FALSE(folded_by_finite_math(ref::Format::f32, 0.0, f32(1e-8)));       // log(1) = 1e-8
    EXPECT_FALSE(folded_by_finite_math(ref::Format::f32, nan, f32(HUGE_VAL)));   // not a finite fold
    EXPECT_FALSE(folded_by_finite_math(ref::Format::f32, HUGE_VAL, f32(3.4e38)));
    EXPECT_FALSE(folded_by_finite_math(ref::Format::f32, 2.0, f32(-2.0)));
}

// ---- C-EXC-01 ---------------------------------------------------------------

TEST(SignatureSelection, SpecialValueSignaturesNeedOneMechanism) {
    using M = SpecialMismatch;
    EXPECT_EQ(special_signature({M::masked_leak, M::nan_dropped}), "masked-leak");
    EXPECT_EQ(special_signature({M::nan_dropped}), "nan-dropped");
    EXPECT_EQ(special_signature({M::nan_dropped, M::not_a_copy}), "nan-dropped");
    EXPECT_EQ(special_signature({M::nan_dropped, M::infinity_lost}), "unmatched");
    // An infinity gathered as a NaN: not infinity-lost's pattern.
    EXPECT_EQ(judge_special(SpecialExpectation::positive_inf, ref::Format::f32, 0x7FC00000), M::unmatched);
    EXPECT_EQ(special_signature({M::unmatched}), "unmatched");
}

// A gather that quiets a signalling NaN keeps its class: not-a-copy, only
// where every element has its class.
TEST(SignatureSelection, NotACopyIsTheRightClassWithOtherBits) {
    using M = SpecialMismatch;
    EXPECT_EQ(judge_special(SpecialExpectation::nan, ref::Format::f32, 0x7FC00001), M::none);  // quieted 0x7F800001
    EXPECT_EQ(special_signature({M::not_a_copy}), "not-a-copy");
}

// ftz-daz gathers through float registers: its f16 and bf16 loads quiet the
// signalling NaNs of the table (0xFC01 comes back 0xFE01), all else of its class.
TEST(SignatureSelection, AGatherThroughArithmeticIsNotACopy) {
    for (const char* config : {"f16xi32-f16", "bf16xi64-bf16"})
        expect_fail(instance_id("C-EXC-01", "gather", config), "ftz-daz", "C-EXC-01", "not-a-copy");
    // reference-cpu moves the rows as bytes.
    const auto run = run_instance(instance_id("C-EXC-01", "gather", "f16xi32-f16"), "reference-cpu");
    EXPECT_EQ(run.verdict, harness::Verdict::pass) << describe(run.result);
}

// ---- C-EXC-02 ---------------------------------------------------------------

// A gather of 3 positions from a 4 x 2 f32 table (row r holds r + 1, r + 1.5).
GatherProblem small_gather() {
    GatherProblem p{{4, 2, 3}, from_values("f32", {4, 2}, {1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}), {2, 0, 3}};
    return p;
}

harness::HostTensor rows_of(const std::vector<double>& v) { return from_values("f32", {3, 2}, v); }

TEST(SignatureSelection, ZeroRowsUnderRaiseAreZerosOfEitherSign) {
    EXPECT_EQ(raise_departure(rows_of({3, 3.5, 0, 0, 4, 4.5}), 1, 2), "zero-rows-under-raise");
    EXPECT_EQ(raise_departure(rows_of({3, 3.5, -0.0, -0.0, 4, 4.5}), 1, 2), "zero-rows-under-raise");
    EXPECT_EQ(raise_departure(rows_of({3, 3.5, -0.0, 0, 4, 4.5}), 1, 2), "zero-rows-under-raise");
    // A row read from the end (index -1 as R - 1) is a nonzero row.
    EXPECT_EQ(raise_departure(rows_of({3, 3.5, 4, 4.5, 4, 4.5}), 1, 2), "policy-mismatch");
}

// Rows the previous call left are stale even where other rows were written.
TEST(SignatureSelection, StaleRowsAreThePreviousCallsRowsAtTheirPositions) {
    const GatherProblem p = small_gather();
    const harness::HostTensor previous = rows_of({9, 9.5, 8, 8.5, 7, 7.5});
    const WrongRows one_stale = wrong_rows(p, rows_of({3, 3.5, 8, 8.5, 4, 4.5}), previous);
    EXPECT_EQ(one_stale.stale, 1u);
    EXPECT_FALSE(one_stale.altered.has_value());
    const WrongRows altered = wrong_rows(p, rows_of({3, 3.5, 1, 1.25, 4, 4.5}), previous);
    EXPECT_EQ(altered.stale, 0u);
    EXPECT_EQ(altered.altered, 1);
    EXPECT_EQ(wrong_rows(p, rows_of({3, 3.5, 1, 1.5, 4, 4.5}), previous).stale, 0u);  // every row right
}

TEST(SignatureSelection, MixedDeparturesAreThePolicyMismatch) {
    EXPECT_EQ(departure_signature({"zero-rows-under-raise", "zero-rows-under-raise"}), "zero-rows-under-raise");
    EXPECT_EQ(departure_signature({"stale-or-poison-left"}), "stale-or-poison-left");
    // A 64-bit index truncated to 32 bits reads a row where the others give zeros.
    EXPECT_EQ(departure_signature({"zero-rows-under-raise", "policy-mismatch"}), "policy-mismatch");
    EXPECT_EQ(departure_signature({"stale-or-poison-left", "zero-rows-under-raise"}), "policy-mismatch");
}

}  // namespace
}  // namespace kcs::suites::testing
