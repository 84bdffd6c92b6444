// U(wa, wb), uniform(LO, HI), Lemire's integers and the parameter checks.
#include "kcs/reference/distributions.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace kcs::ref {
namespace {

constexpr std::int64_t kInt64Min = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

PhiloxBlock words(std::uint32_t w0, std::uint32_t w1) { return PhiloxBlock{w0, w1, 0, 0}; }

TEST(UnitUniform, TakesTheTop53BitsOfTheTwoWords) {
    static_assert(unit_uniform(0, 0) == 0.0);
    static_assert(unit_uniform(0xffffffff, 0xffffffff) == 1.0 - 0x1p-53);
    static_assert(unit_uniform(0, 0x7ff) == 0.0);       // the 11 low bits are dropped
    static_assert(unit_uniform(0, 0x800) == 0x1p-53);   // the lowest bit kept
    static_assert(unit_uniform(0x80000000, 0) == 0.5);  // the top bit
    static_assert(unit_uniform(0x00000001, 0) == 0x1p-32);
}

TEST(UnitUniform, SpecKnownAnswersForSeedOne) {
    const PhiloxBlock b = philox_block(1, 0, 0, 0);
    EXPECT_EQ(unit_uniform(b[0], b[1]), 0x1.c7d00ce1ca141p-1);
    EXPECT_EQ(unit_uniform(b[2], b[3]), 0x1.2be445816c2b5p-1);
}

TEST(Uniform, IsLoPlusWidthTimesUWithTwoRoundings) {
    // u = 0.5: exact.
    EXPECT_EQ(sample(Uniform{-1.0, 1.0}, words(0x80000000, 0)), 0.0);
    // u = 0: LO.
    EXPECT_EQ(sample(Uniform{-3.0, 5.0}, words(0, 0)), -3.0);
    // u = 1 - 2^-53 and width 1: 1 ⊗ u = u, LO ⊕ u = 3 - 2^-53 rounds to 3 = HI.
    EXPECT_EQ(sample(Uniform{2.0, 3.0}, words(0xffffffff, 0xffffffff)), 3.0);
    // The product and the sum are rounded separately: with u = 0.140625,
    // 0.3 ⊕ ((0.4 ⊖ 0.3) ⊗ u) = 0x1.419999999999ap-2, while a fused
    // multiply-add would give 0x1.4199999999999p-2.
    EXPECT_EQ(sample(Uniform{0.3, 0.4}, words(0x24000000, 0)), 0x1.419999999999ap-2);
}

TEST(MultiplyHigh, MatchesTheProductSplitByHand) {
    EXPECT_EQ(multiply_high(0, 12345), 0u);
    EXPECT_EQ(multiply_high(0xffffffffffffffffu, 0xffffffffffffffffu), 0xfffffffffffffffeu);
    EXPECT_EQ(multiply_high(std::uint64_t{1} << 63, 2), 1u);
    EXPECT_EQ(multiply_high(std::uint64_t{1} << 32, std::uint64_t{1} << 32), 1u);
    // (2^64 - 1)·3 = 2·2^64 + (2^64 - 3): high half 2.
    EXPECT_EQ(multiply_high(0xffffffffffffffffu, 3), 2u);
    // 0x123456789abcdef0 · 0xfedcba9876543210 = 0x121fa00ad77d7422_236d88fe5618cf00
    EXPECT_EQ(multiply_high(0x123456789abcdef0u, 0xfedcba9876543210u), 0x121fa00ad77d7422u);
}

TEST(Integers, EndsOfTheWordRangeGiveLoAndHi) {
    const Integers d{-5, 5};
    EXPECT_EQ(sample(d, words(0, 0)), -5);
    EXPECT_EQ(sample(d, words(0xffffffff, 0xffffffff)), 5);
    // x = 2^63: floor(2^63·11/2^64) = 5, so v = 0.
    EXPECT_EQ(sample(d, words(0x80000000, 0)), 0);
}

TEST(Integers, OneValueRange) {
    EXPECT_EQ(sample(Integers{7, 7}, words(0x12345678, 0x9abcdef0)), 7);
    EXPECT_EQ(sample(Integers{kInt64Min, kInt64Min}, words(0xffffffff, 0xffffffff)), kInt64Min);
}

TEST(Integers, LargestRangeOf2To63Values) {
    const Integers negative_half{kInt64Min, -1};
    EXPECT_EQ(sample(negative_half, words(0, 0)), kInt64Min);
    EXPECT_EQ(sample(negative_half, words(0xffffffff, 0xffffffff)), -1);
    const Integers positive_half{0, kInt64Max};
    EXPECT_EQ(sample(positive_half, words(0xffffffff, 0xffffffff)), kInt64Max);
    // n = 2^63: v = x >> 1.
    EXPECT_EQ(sample(positive_half, words(0x00000003, 0x00000005)), std::int64_t{0x0000000180000002});
}

TEST(Integers, StayInsideTheirRangeAndReachBothEnds) {
    for (const Integers d : {Integers{0, 1}, Integers{-3, 3}, Integers{0, 1023}, Integers{-1000000, 7}}) {
        std::int64_t seen_min = d.hi, seen_max = d.lo;
        for (std::uint64_t i = 0; i < 20000; ++i) {
            const std::int64_t v = sample(d, philox_block(99, 0, 5, i));
            ASSERT_GE(v, d.lo);
            ASSERT_LE(v, d.hi);
            seen_min = std::min(seen_min, v);
            seen_max = std::max(seen_max, v);
        }
        if (d.hi - d.lo < 2000) {
            EXPECT_EQ(seen_min, d.lo);
            EXPECT_EQ(seen_max, d.hi);
        }
    }
}

TEST(Integers, FollowLemiresFormulaOnEveryWord) {
    // v = LO + floor(x·n / 2^64) with x = w0·2^32 + w1, for n = 10: the
    // high half of x·10 is floor(x / 2^64 · 10), the leading decimal digit.
    const PhiloxBlock b = philox_block(1, 0, 0, 0);  // e3e80670 e50a0ebc
    // 0xe3e80670e50a0ebc / 2^64 = 0.8902..., so the digit is 8.
    EXPECT_EQ(sample(Integers{0, 9}, b), 8);
    EXPECT_EQ(sample(Integers{100, 109}, b), 108);
}

TEST(SampleF64, IsTheValueOfEachDistribution) {
    const PhiloxBlock b = philox_block(1, 0, 0, 0);
    EXPECT_EQ(sample_f64(Uniform{0.0, 1.0}, b), unit_uniform(b[0], b[1]));
    EXPECT_EQ(sample_f64(Integers{0, 9}, b), 8.0);
    EXPECT_EQ(sample_f64(Constant{0.25}, b), 0.25);
    EXPECT_EQ(sample_f64(Normal{0.0, 1.0}, b), -0x1.cdf76d60308f6p+0);
}

TEST(Validate, AcceptsOrdinaryParameters) {
    EXPECT_NO_THROW(validate(Normal{0.0, 1.0}));
    EXPECT_NO_THROW(validate(Normal{1e4, 0.0}));
    EXPECT_NO_THROW(validate(Uniform{-1.0, -1.0}));
    EXPECT_NO_THROW(validate(Integers{kInt64Min, -1}));
    EXPECT_NO_THROW(validate(Constant{std::numeric_limits<double>::infinity()}));
    EXPECT_NO_THROW(validate_for_floats(Integers{-(std::int64_t{1} << 53), std::int64_t{1} << 53}));
}

void expect_invalid(const Distribution& d, const std::string& message) {
    try {
        validate_for_floats(d);
        ADD_FAILURE() << "accepted " << to_string(d);
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(e.what(), message);
    }
}

TEST(Validate, RejectsWithTheReason) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    expect_invalid(Uniform{1.0, -1.0}, "distribution uniform(1,-1): LO must not exceed HI");
    expect_invalid(Uniform{-inf, 1.0}, "distribution uniform(-inf,1): LO and HI must be finite");
    expect_invalid(Uniform{-1e308, 1e308}, "distribution uniform(-1e+308,1e+308): HI - LO overflows f64");
    expect_invalid(Normal{0.0, -1.0}, "distribution normal(0,-1): STD must not be negative");
    expect_invalid(Normal{nan, 1.0}, "distribution normal(nan,1): MEAN and STD must be finite");
    expect_invalid(Integers{3, 2}, "distribution integers(3,2): LO must not exceed HI");
    expect_invalid(Integers{kInt64Min, 0},
                   "distribution integers(-9223372036854775808,0): HI - LO + 1 must not exceed 2^63");
    expect_invalid(Integers{0, (std::int64_t{1} << 53) + 1},
                   "distribution integers(0,9007199254740993): LO and HI must lie in [-2^53, 2^53] for a "
                   "floating-point tensor");
    expect_invalid(Constant{nan},
                   "distribution constant(nan): V must not be a NaN (special-value sets place NaNs)");
}

TEST(ToString, SpellsTheCatalogForm) {
    EXPECT_EQ(to_string(Normal{0.0, 1.0}), "normal(0,1)");
    EXPECT_EQ(to_string(Uniform{-110.0, 110.0}), "uniform(-110,110)");
    EXPECT_EQ(to_string(Normal{1e4, 1e-2}), "normal(10000,0.01)");
    EXPECT_EQ(to_string(Integers{0, 4294967295}), "integers(0,4294967295)");
    EXPECT_EQ(to_string(Constant{0.1}), "constant(0.1)");
    EXPECT_EQ(to_string(kOnes), "constant(1)");
}

}  // namespace
}  // namespace kcs::ref
