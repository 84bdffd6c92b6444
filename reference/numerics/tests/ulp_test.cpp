// ulp_distance along the ordered line of values and ulp_at, with the
// expected values worked out from the encodings.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

TEST(UlpDistance, SignedZerosAreOnePoint) {
    EXPECT_EQ(ulp_distance(Format::f16, 0x0000, 0x8000), 0u);
    EXPECT_EQ(ulp_distance(Format::bf16, 0x8000, 0x0000), 0u);
    EXPECT_EQ(ulp_distance(Format::f32, 0x00000000, 0x80000000), 0u);
}

TEST(UlpDistance, AcrossZeroCountsZeroOnce) {
    // -min_sub -> 0 -> +min_sub: two steps.
    EXPECT_EQ(ulp_distance(Format::f16, 0x0001, 0x8001), 2u);
    EXPECT_EQ(ulp_distance(Format::bf16, 0x0001, 0x8001), 2u);
    EXPECT_EQ(ulp_distance(Format::f32, 0x80000001, 0x00000001), 2u);
    // -1 to +1 in f16: 1.0 is encoding 0x3C00, so 0x3C00 steps each side.
    EXPECT_EQ(ulp_distance(Format::f16, 0xBC00, 0x3C00), 2u * 0x3C00);
    // A zero to min_sub is one step, whatever the zero's sign.
    EXPECT_EQ(ulp_distance(Format::f16, 0x8000, 0x0001), 1u);
}

TEST(UlpDistance, NeighboursAcrossBinadeAndSubnormalBoundaries) {
    EXPECT_EQ(ulp_distance(Format::f16, 0x3C00, 0x3C01), 1u);  // 1 and 1 + 2^-10
    EXPECT_EQ(ulp_distance(Format::f16, 0x3BFF, 0x3C00), 1u);  // 1 - 2^-11 and 1
    EXPECT_EQ(ulp_distance(Format::f16, 0x03FF, 0x0400), 1u);  // max subnormal and min normal
    EXPECT_EQ(ulp_distance(Format::bf16, 0x3F80, 0x4000), 0x80u);  // 1 to 2: 2^7 values of one binade
}

TEST(UlpDistance, InfinityIsOneStepBeyondTheLargestFinite) {
    EXPECT_EQ(ulp_distance(Format::f16, 0x7BFF, 0x7C00), 1u);
    EXPECT_EQ(ulp_distance(Format::f16, 0xFC00, 0xFBFF), 1u);
    EXPECT_EQ(ulp_distance(Format::bf16, 0x7F7F, 0x7F80), 1u);
    EXPECT_EQ(ulp_distance(Format::f16, 0xFC00, 0x7C00), 2u * 0x7C00);  // 63488
    // 2 * 0x7F800000 = 4278190080 needs more than 31 bits.
    EXPECT_EQ(ulp_distance(Format::f32, 0xFF800000, 0x7F800000), 4278190080u);
}

TEST(UlpDistance, NaNsAreEqualToEachOtherAndInfinitelyFarFromNumbers) {
    EXPECT_EQ(ulp_distance(Format::f16, 0x7E00, 0xFC01), 0u);  // quiet and signalling, either sign
    EXPECT_EQ(ulp_distance(Format::f16, 0x7E00, 0x7C00), kUlpInfinite);
    EXPECT_EQ(ulp_distance(Format::bf16, 0x0000, 0x7FC0), kUlpInfinite);
    EXPECT_EQ(ulp_distance(Format::f32, 0x7F800001, 0x3F800000), kUlpInfinite);
}

TEST(UlpDistance, IsSymmetricAndIgnoresBitsAboveTheStorage) {
    EXPECT_EQ(ulp_distance(Format::f16, 0x3C00, 0x3555), ulp_distance(Format::f16, 0x3555, 0x3C00));
    EXPECT_EQ(ulp_distance(Format::f16, 0xFFFF3C00u, 0x3C00), 0u);
}

TEST(UlpAt, NormalRangeIsTheSpacingOfTheBinade) {
    // f16: ulp(x) = 2^(E - 10) for E = floor(log2|x|) >= -14.
    EXPECT_EQ(ulp_at(Format::f16, 1.0), std::ldexp(1.0, -10));
    EXPECT_EQ(ulp_at(Format::f16, 1.999), std::ldexp(1.0, -10));
    EXPECT_EQ(ulp_at(Format::f16, -1.5), std::ldexp(1.0, -10));
    EXPECT_EQ(ulp_at(Format::f16, 65504.0), 32.0);  // E = 15: 2^5
    EXPECT_EQ(ulp_at(Format::bf16, 3.0), std::ldexp(1.0, -6));  // E = 1, p = 8: 2^(1-7)
    EXPECT_EQ(ulp_at(Format::f32, 1.0), std::ldexp(1.0, -23));
}

TEST(UlpAt, PowerOfTwoTakesTheBinadeAboveIt) {
    // 1.0 starts the binade [1, 2): spacing 2^-10, though the values below 1 are 2^-11 apart.
    EXPECT_EQ(ulp_at(Format::f16, 1.0), std::ldexp(1.0, -10));
    EXPECT_EQ(ulp_at(Format::f16, std::nextafter(1.0, 0.0)), std::ldexp(1.0, -11));
    EXPECT_EQ(ulp_at(Format::f16, 0.5), std::ldexp(1.0, -11));
}

TEST(UlpAt, SubnormalRangeAndZeroUseTheSubnormalSpacing) {
    EXPECT_EQ(ulp_at(Format::f16, std::ldexp(1.0, -14)), std::ldexp(1.0, -24));  // min normal: E = emin
    EXPECT_EQ(ulp_at(Format::f16, std::ldexp(1.0, -15)), std::ldexp(1.0, -24));  // max(E, -14) = -14
    EXPECT_EQ(ulp_at(Format::f16, std::ldexp(1.0, -30)), std::ldexp(1.0, -24));  // below min subnormal too
    EXPECT_EQ(ulp_at(Format::f16, 0.0), std::ldexp(1.0, -24));
    EXPECT_EQ(ulp_at(Format::f16, -0.0), std::ldexp(1.0, -24));
    EXPECT_EQ(ulp_at(Format::bf16, std::ldexp(1.0, -130)), std::ldexp(1.0, -133));
    EXPECT_EQ(ulp_at(Format::f32, std::ldexp(1.0, -140)), std::ldexp(1.0, -149));
}

TEST(UlpAt, BeyondTheRangeInfinityAndNaN) {
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_EQ(ulp_at(Format::f16, 1e6), 512.0);  // 2^19 <= 1e6 < 2^20: 2^(19-10)
    EXPECT_EQ(ulp_at(Format::f16, inf), 32.0);   // the largest finite's ulp
    EXPECT_EQ(ulp_at(Format::f16, -inf), 32.0);
    EXPECT_EQ(ulp_at(Format::bf16, inf), std::ldexp(1.0, 120));  // E = 127, p = 8
    EXPECT_TRUE(std::isnan(ulp_at(Format::f16, std::numeric_limits<double>::quiet_NaN())));
}

}  // namespace
}  // namespace kcs::ref
