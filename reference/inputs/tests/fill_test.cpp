// Golden values: elements of each distribution in f32, f16 and bf16, pinned
// as encodings (seed 42, tensor 1, stream 0), and each one reasoned about
// again here from the Philox words, so that a change of compiler, standard
// library or platform that moved a single bit would fail.
#include "kcs/reference/fill.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "correctly_rounded.hpp"
#include "normal_cache.hpp"

namespace kcs::ref {
namespace {

const TensorStream kGolden{42, 1, 0};

// The words of elements 0..3 (the first two of each block are all that
// uniform and integers use).
constexpr std::array<PhiloxBlock, 4> kGoldenBlocks{{
    {0x02933769, 0x2051e913, 0x3b68b038, 0xb62c409c},
    {0x20ff9139, 0xfdd21d94, 0x1b0af4ec, 0x39c6bd08},
    {0x36794079, 0x1f70ab07, 0x709af7c6, 0x56eae9bc},
    {0x1e8dc7c5, 0xae3a5abf, 0x36d8462c, 0x080b604b},
}};

std::vector<std::uint32_t> first_four(Format format, const Distribution& d) {
    return fill_bits(format, d, kGolden, 4);
}

// `bits` encodes the value of `format` nearest to x, ties to an even
// encoding: checked against both neighbours with exact f64 arithmetic
// (the differences of nearby values of these formats are exact in f64).
void expect_nearest(Format format, std::uint32_t bits, double x) {
    const double v = decode(format, bits);
    const bool negative = std::signbit(v);
    const std::uint32_t toward_zero = bits - 1, away = bits + 1;  // same sign, magnitude ±1 step
    const double below = decode(format, negative ? away : toward_zero);
    const double above = decode(format, negative ? toward_zero : away);
    const double distance = std::abs(x - v);
    EXPECT_LE(distance, std::abs(x - below)) << std::hexfloat << x;
    EXPECT_LE(distance, std::abs(x - above)) << std::hexfloat << x;
    if (distance == std::abs(x - below) || distance == std::abs(x - above)) {
        EXPECT_EQ(bits & 1u, 0u) << "a tie must go to the even encoding";
    }
}

TEST(GoldenBlocks, AreThePhiloxBlocksOfTheGoldenTensor) {
    for (std::uint64_t i = 0; i < kGoldenBlocks.size(); ++i) EXPECT_EQ(philox_block(42, 1, 0, i), kGoldenBlocks[i]);
}

TEST(GoldenUniform, PinnedEncodings) {
    EXPECT_EQ(first_four(Format::f32, Uniform{-1, 1}),
              (std::vector<std::uint32_t>{0xbf7ad991, 0xbf3e00de, 0xbf130d7f, 0xbf42e470}));
    EXPECT_EQ(first_four(Format::f16, Uniform{-1, 1}),
              (std::vector<std::uint32_t>{0xbbd7, 0xb9f0, 0xb898, 0xba17}));
    EXPECT_EQ(first_four(Format::bf16, Uniform{-1, 1}),
              (std::vector<std::uint32_t>{0xbf7b, 0xbf3e, 0xbf13, 0xbf43}));
}

TEST(GoldenUniform, RecomputedByHandFromTheWords) {
    for (std::size_t i = 0; i < kGoldenBlocks.size(); ++i) {
        const PhiloxBlock& w = kGoldenBlocks[i];
        // U: the top 53 bits of w0·2^32 + w1, scaled by 2^-53.
        const std::uint64_t top53 = ((std::uint64_t{w[0]} << 32) | w[1]) >> 11;
        const double u = std::ldexp(static_cast<double>(top53), -53);
        const double x = -1.0 + 2.0 * u;  // LO ⊕ ((HI ⊖ LO) ⊗ u), both steps exact here
        EXPECT_EQ(x, sample(Uniform{-1, 1}, w));
        // f32: the C++ conversion double -> float rounds to nearest even.
        EXPECT_EQ(first_four(Format::f32, Uniform{-1, 1})[i], std::bit_cast<std::uint32_t>(static_cast<float>(x)));
        expect_nearest(Format::f16, first_four(Format::f16, Uniform{-1, 1})[i], x);
        expect_nearest(Format::bf16, first_four(Format::bf16, Uniform{-1, 1})[i], x);
    }
    // Element 0 by eye: w0 = 0x02933769 is 0.01006 of 2^32, so x = -0.97988;
    // f32 0xbf7ad991 is -0.979882...
    EXPECT_NEAR(decode(Format::f32, 0xbf7ad991), -1.0 + 2.0 * (0x02933769 / 4294967296.0), 1e-7);
}

TEST(GoldenNormal, PinnedEncodings) {
    EXPECT_EQ(first_four(Format::f32, Normal{0, 1}),
              (std::vector<std::uint32_t>{0x3c82fb36, 0x3ed3e04f, 0xbf24989c, 0x3de6117f}));
    EXPECT_EQ(first_four(Format::f16, Normal{0, 1}), (std::vector<std::uint32_t>{0x2418, 0x369f, 0xb925, 0x2f31}));
    EXPECT_EQ(first_four(Format::bf16, Normal{0, 1}),
              (std::vector<std::uint32_t>{0x3c83, 0x3ed4, 0xbf25, 0x3de6}));
    EXPECT_EQ(first_four(Format::f32, Normal{1e3, 2}),
              (std::vector<std::uint32_t>{0x447a020c, 0x447a34f8, 0x4479adb4, 0x447a0e61}));
    EXPECT_EQ(first_four(Format::f16, Normal{1e3, 2}), (std::vector<std::uint32_t>{0x63d0, 0x63d2, 0x63cd, 0x63d0}));
    // bf16 spacing at 1000 is 4 and every |2z| here is below 2: all round to 1000.
    EXPECT_EQ(first_four(Format::bf16, Normal{1e3, 2}), (std::vector<std::uint32_t>{0x447a, 0x447a, 0x447a, 0x447a}));
}

TEST(GoldenNormal, RecomputedByHandFromTheWords) {
    constexpr double kTwoPi = 0x1.921fb54442d18p+2;
    for (std::size_t i = 0; i < kGoldenBlocks.size(); ++i) {
        const PhiloxBlock& w = kGoldenBlocks[i];
        const double u1 = unit_uniform(w[0], w[1]);
        const double u2 = unit_uniform(w[2], w[3]);
        const double r = std::sqrt(-2.0 * inputs_detail::log_by_mpfr(1.0 - u1));
        const double z = r * inputs_detail::cos_by_mpfr(kTwoPi * u2);
        EXPECT_EQ(first_four(Format::f32, Normal{0, 1})[i], std::bit_cast<std::uint32_t>(static_cast<float>(z)));
        expect_nearest(Format::f16, first_four(Format::f16, Normal{0, 1})[i], z);
        expect_nearest(Format::bf16, first_four(Format::bf16, Normal{0, 1})[i], z);
        const double x = 1e3 + 2.0 * z;
        EXPECT_EQ(first_four(Format::f32, Normal{1e3, 2})[i], std::bit_cast<std::uint32_t>(static_cast<float>(x)));
        expect_nearest(Format::f16, first_four(Format::f16, Normal{1e3, 2})[i], x);
    }
}

TEST(GoldenIntegers, PinnedAndRecomputedByHand) {
    // n = 11: v = -5 + floor(11·x/2^64). The leading word fractions are
    // 0.0101, 0.1289, 0.2128, 0.1194 of 2^32: 11 times them floor to 0, 1, 2, 1.
    const std::vector<std::int64_t> expected{-5, -4, -3, -4};
    EXPECT_EQ(fill_integers(Integers{-5, 5}, kGolden, 4), expected);
    for (std::size_t i = 0; i < kGoldenBlocks.size(); ++i)
        EXPECT_EQ(static_cast<std::int64_t>(kGoldenBlocks[i][0] * 11.0 / 4294967296.0) - 5, expected[i]);
    EXPECT_EQ(first_four(Format::f32, Integers{-5, 5}),
              (std::vector<std::uint32_t>{0xc0a00000, 0xc0800000, 0xc0400000, 0xc0800000}));
    EXPECT_EQ(first_four(Format::f16, Integers{-5, 5}), (std::vector<std::uint32_t>{0xc500, 0xc400, 0xc200, 0xc400}));
    EXPECT_EQ(first_four(Format::bf16, Integers{-5, 5}),
              (std::vector<std::uint32_t>{0xc0a0, 0xc080, 0xc040, 0xc080}));
}

TEST(GoldenConstant, IsRnOfTheValueEverywhere) {
    EXPECT_EQ(first_four(Format::f32, Constant{0.1}), std::vector<std::uint32_t>(4, 0x3dcccccd));
    EXPECT_EQ(first_four(Format::f16, Constant{0.1}), std::vector<std::uint32_t>(4, 0x2e66));
    EXPECT_EQ(first_four(Format::bf16, Constant{0.1}), std::vector<std::uint32_t>(4, 0x3dcd));
    EXPECT_EQ(first_four(Format::f16, kOnes), std::vector<std::uint32_t>(4, 0x3c00));
    EXPECT_EQ(first_four(Format::f16, Constant{1e6}), std::vector<std::uint32_t>(4, 0x7c00));  // overflows to +inf
}

TEST(Fill, AnyRangeOfElementsCanBeGeneratedAlone) {
    const Normal d{0.0, 1.0};
    const std::vector<std::uint32_t> whole = fill_bits(Format::f16, d, kGolden, 100);
    std::vector<std::uint32_t> chunk(30);
    fill_bits(Format::f16, d, kGolden, 40, chunk);
    for (std::size_t k = 0; k < chunk.size(); ++k) EXPECT_EQ(chunk[k], whole[40 + k]);
    EXPECT_EQ(element_bits(Format::f16, d, kGolden, 77), whole[77]);
}

// Normal draws of kNormalCacheMinimum elements or more are kept and reused:
// a second fill, in another dtype, another mean and std, or the first
// fill's cached z, must give the bits that drawing each element alone gives.
TEST(Fill, KeptNormalDrawsGiveTheSameBits) {
    const std::size_t count = inputs_detail::kNormalCacheMinimum + 3;
    const TensorStream where{97, 2, 0};
    for (const Normal d : {Normal{0.0, 1.0}, Normal{0.5, 3.0}}) {
        for (const Format format : {Format::f32, Format::f16, Format::bf16}) {
            for (int pass = 0; pass < 2; ++pass) {
                const std::vector<std::uint32_t> bits = fill_bits(format, d, where, count);
                for (const std::uint64_t i : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{count / 2}, count - 1})
                    ASSERT_EQ(bits[i], element_bits(format, d, where, i)) << "element " << i << ", pass " << pass;
            }
        }
    }
    // Another range of the same tensor is another draw, not a slice of the kept one.
    std::vector<std::uint32_t> shifted(count);
    fill_bits(Format::f32, Normal{0.0, 1.0}, where, 5, shifted);
    EXPECT_EQ(shifted[0], element_bits(Format::f32, Normal{0.0, 1.0}, where, 5));
    EXPECT_EQ(shifted[count - 1], element_bits(Format::f32, Normal{0.0, 1.0}, where, 5 + count - 1));
}

TEST(Fill, ValuesAreTheDecodedEncodings) {
    const Uniform d{-3.0, 3.0};
    const std::vector<std::uint32_t> bits = fill_bits(Format::bf16, d, kGolden, 50);
    const std::vector<double> values = fill_values(Format::bf16, d, kGolden, 50);
    for (std::size_t k = 0; k < bits.size(); ++k) EXPECT_EQ(values[k], decode(Format::bf16, bits[k]));
}

TEST(Fill, F32IsTheDirectRoundingOfTheF64Value) {
    for (const Distribution& d : {Distribution{Normal{0.5, 3.0}}, Distribution{Uniform{-1e3, 1e-3}}}) {
        const std::vector<std::uint32_t> bits = fill_bits(Format::f32, d, kGolden, 2000);
        for (std::uint64_t i = 0; i < bits.size(); ++i) {
            const double x = sample_f64(d, philox_block(42, 1, 0, i));
            ASSERT_EQ(bits[i], std::bit_cast<std::uint32_t>(static_cast<float>(x))) << "element " << i;
        }
    }
}

TEST(Fill, SeedTensorAndStreamEachSelectOtherValues) {
    const Normal d{0.0, 1.0};
    const std::vector<std::uint32_t> base = fill_bits(Format::f32, d, kGolden, 8);
    EXPECT_NE(fill_bits(Format::f32, d, TensorStream{43, 1, 0}, 8), base);
    EXPECT_NE(fill_bits(Format::f32, d, TensorStream{42, 0, 0}, 8), base);
    EXPECT_NE(fill_bits(Format::f32, d, TensorStream{42, 1, auxiliary_stream(0)}, 8), base);
}

TEST(Fill, IntegersChunkAndValidate) {
    const Integers d{0, 4294967295};
    const std::vector<std::int64_t> whole = fill_integers(d, kGolden, 64);
    std::vector<std::int64_t> chunk(8);
    fill_integers(d, kGolden, 10, chunk);
    for (std::size_t k = 0; k < chunk.size(); ++k) EXPECT_EQ(chunk[k], whole[10 + k]);
    // n = 2^32: v is the first word.
    EXPECT_EQ(whole[0], 0x02933769);
    EXPECT_THROW(fill_integers(Integers{1, 0}, kGolden, 1), std::invalid_argument);
}

TEST(Fill, RejectsIntegersThatAreNotExactF64ForFloatTensors) {
    const Integers too_wide{0, (std::int64_t{1} << 53) + 1};
    EXPECT_THROW(fill_bits(Format::f32, too_wide, kGolden, 1), std::invalid_argument);
    EXPECT_THROW(element_bits(Format::f32, Normal{0, -1}, kGolden, 0), std::invalid_argument);
    EXPECT_NO_THROW(fill_integers(too_wide, kGolden, 1));
}

}  // namespace
}  // namespace kcs::ref
