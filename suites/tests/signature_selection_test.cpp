// Signatures chosen by their evidence: for each class, the function that
// states its signatures' selected_when, shown one pattern per signature,
// and the patterns no signature describes (unmatched, never the first).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../classes/precision_signatures.hpp"
#include "../tolerance/exact_when_representable.hpp"

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

}  // namespace
}  // namespace kcs::suites::testing
