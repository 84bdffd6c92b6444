// normal(MEAN, STD): SPEC.md's known answers, the formula recomputed by
// hand through MPFR alone, the bound |z| < 8.6 and the moments.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "correctly_rounded.hpp"
#include "kcs/reference/distributions.hpp"
#include "kcs/reference/fill.hpp"

namespace kcs::ref {
namespace {

constexpr double kTwoPi = 0x1.921fb54442d18p+2;

// SPEC's formula step by step, ln and cos from MPFR only.
double z_by_hand(const PhiloxBlock& w) {
    const double u1 = unit_uniform(w[0], w[1]);
    const double u2 = unit_uniform(w[2], w[3]);
    const double l = inputs_detail::log_by_mpfr(1.0 - u1);
    const double r = std::sqrt(-2.0 * l);
    const double theta = kTwoPi * u2;
    return r * inputs_detail::cos_by_mpfr(theta);
}

TEST(Normal, SpecKnownAnswersSeedOne) {
    const PhiloxBlock b0 = philox_block(1, 0, 0, 0);
    EXPECT_EQ(unit_uniform(b0[0], b0[1]), 0x1.c7d00ce1ca141p-1);
    EXPECT_EQ(unit_uniform(b0[2], b0[3]), 0x1.2be445816c2b5p-1);
    EXPECT_EQ(standard_normal(b0), -0x1.cdf76d60308f6p+0);
    EXPECT_EQ(standard_normal(philox_block(1, 0, 0, 1)), -0x1.79c22ed32136dp+0);

    const TensorStream seed_one{1, 0};
    EXPECT_EQ(element_bits(Format::f32, Normal{0.0, 1.0}, seed_one, 0), 0xbfe6fbb7u);
    EXPECT_EQ(element_bits(Format::f32, Normal{0.0, 1.0}, seed_one, 1), 0xbfbce117u);
}

TEST(Normal, EqualsTheFormulaComputedThroughMpfrAlone) {
    for (std::uint64_t i = 0; i < 4000; ++i) {
        const PhiloxBlock b = philox_block(0x5eed, 3, 0, i);
        ASSERT_EQ(standard_normal(b), z_by_hand(b)) << "element " << i;
    }
}

// Many elements at once (the ln and cos of a block in vector lanes, blocks
// of 256 and a tail): each the formula's value.
TEST(Normal, ABlockOfElementsEqualsTheFormulaComputedThroughMpfrAlone) {
    std::vector<PhiloxBlock> blocks;
    for (std::uint64_t i = 0; i < 4000; ++i) blocks.push_back(philox_block(0xb10c, 5, 0, i));
    std::vector<double> z(blocks.size());
    standard_normals(blocks, z);
    for (std::size_t i = 0; i < blocks.size(); ++i) ASSERT_EQ(z[i], z_by_hand(blocks[i])) << "element " << i;
    EXPECT_THROW(standard_normals(blocks, std::span(z).first(3)), std::invalid_argument);
}

TEST(Normal, MeanAndStdAreAppliedWithTwoRoundings) {
    const PhiloxBlock b = philox_block(1, 0, 0, 0);
    const double z = -0x1.cdf76d60308f6p+0;
    EXPECT_EQ(sample(Normal{0.0, 1.0}, b), z);
    const double scaled = 0.1 * z;
    EXPECT_EQ(sample(Normal{1e4, 0.1}, b), 1e4 + scaled);
    EXPECT_EQ(sample(Normal{5.0, 0.0}, b), 5.0);
}

TEST(Normal, ExtremeWordsGiveTheLargestMagnitudeAndZero) {
    // u1 = 1 - 2^-53, u2 = 0: z = sqrt(-2·ln 2^-53)·cos 0 = sqrt(106 ln 2).
    const double largest = standard_normal(PhiloxBlock{0xffffffff, 0xffffffff, 0, 0});
    EXPECT_EQ(largest, std::sqrt(-2.0 * inputs_detail::log_by_mpfr(0x1p-53)));
    EXPECT_NEAR(largest, 8.571674, 1e-6);
    EXPECT_LT(largest, 8.6);
    // u1 = 0: ln 1 = 0, so z = 0 whatever θ.
    EXPECT_EQ(standard_normal(PhiloxBlock{0, 0, 0x12345678, 0x9abcdef0}), 0.0);
}

TEST(Normal, StaysBelowTheSpecBound) {
    for (std::uint64_t i = 0; i < 100000; ++i) ASSERT_LT(std::abs(standard_normal(philox_block(8, 0, 0, i))), 8.6);
}

TEST(Normal, MomentsOf100000VariatesAreWithinFiveSigma) {
    constexpr int kCount = 100000;
    double sum = 0.0, sum_squares = 0.0, sum_cubes = 0.0;
    for (std::uint64_t i = 0; i < kCount; ++i) {
        const double z = standard_normal(philox_block(2024, 0, 0, i));
        sum += z;
        sum_squares += z * z;
        sum_cubes += z * z * z;
    }
    const double n = kCount;
    // Standard errors: mean 1/sqrt(n); second moment sqrt(2/n); third sqrt(15/n).
    EXPECT_LT(std::abs(sum / n), 5.0 / std::sqrt(n));
    EXPECT_LT(std::abs(sum_squares / n - 1.0), 5.0 * std::sqrt(2.0 / n));
    EXPECT_LT(std::abs(sum_cubes / n), 5.0 * std::sqrt(15.0 / n));
}

TEST(Normal, ScaledMomentsFollowMeanAndStd) {
    constexpr int kCount = 100000;
    const Normal d{1e3, 2.0};
    double sum = 0.0, sum_squares = 0.0;
    for (std::uint64_t i = 0; i < kCount; ++i) {
        const double x = sample(d, philox_block(77, 1, 0, i)) - d.mean;
        sum += x;
        sum_squares += x * x;
    }
    const double n = kCount;
    EXPECT_LT(std::abs(sum / n), 5.0 * d.std / std::sqrt(n));
    EXPECT_LT(std::abs(sum_squares / n / (d.std * d.std) - 1.0), 5.0 * std::sqrt(2.0 / n));
}

}  // namespace
}  // namespace kcs::ref
