// Signatures chosen by their evidence: for each class, the function that
// states its signatures' selected_when, shown one pattern per signature,
// and the patterns no signature describes (unmatched, never the first).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../classes/precision_signatures.hpp"

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

}  // namespace
}  // namespace kcs::suites::testing
