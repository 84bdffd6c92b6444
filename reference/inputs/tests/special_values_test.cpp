// Special-value sets: exact encodings per format, the order of SPEC.md,
// the meaning of the added subsets (checked through kcs_numerics, an
// independent construction), exhaustive(t), positions and oob_indices.
#include "kcs/reference/special_values.hpp"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace kcs::ref {
namespace {

using Bits = std::vector<std::uint32_t>;

TEST(SpecialValues, SubsetOrderIsSpecsThenTheAdditions) {
    const std::vector<std::string_view> ids(special_subset_ids().begin(), special_subset_ids().end());
    EXPECT_EQ(ids, (std::vector<std::string_view>{"zeros", "infinities", "nans", "subnormals", "extremes",
                                                   "near_one", "snans", "ties_to_f16", "ties_to_bf16",
                                                   "overflow_to_f16", "overflow_to_bf16"}));
}

TEST(SpecialValues, F32SpecSubsets) {
    const Format t = Format::f32;
    EXPECT_EQ(special_subset(t, "zeros"), (Bits{0x00000000, 0x80000000}));
    EXPECT_EQ(special_subset(t, "infinities"), (Bits{0x7f800000, 0xff800000}));
    EXPECT_EQ(special_subset(t, "nans"), (Bits{0x7fc00000, 0xffc00000}));
    EXPECT_EQ(special_subset(t, "subnormals"), (Bits{0x00000001, 0x80000001, 0x007fffff, 0x807fffff}));
    EXPECT_EQ(special_subset(t, "extremes"), (Bits{0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff}));
    EXPECT_EQ(special_subset(t, "near_one"), (Bits{0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff}));
}

TEST(SpecialValues, F16SpecSubsets) {
    const Format t = Format::f16;
    EXPECT_EQ(special_subset(t, "zeros"), (Bits{0x0000, 0x8000}));
    EXPECT_EQ(special_subset(t, "infinities"), (Bits{0x7c00, 0xfc00}));
    EXPECT_EQ(special_subset(t, "nans"), (Bits{0x7e00, 0xfe00}));
    EXPECT_EQ(special_subset(t, "subnormals"), (Bits{0x0001, 0x8001, 0x03ff, 0x83ff}));
    EXPECT_EQ(special_subset(t, "extremes"), (Bits{0x0400, 0x8400, 0x7bff, 0xfbff}));
    EXPECT_EQ(special_subset(t, "near_one"), (Bits{0x3c00, 0xbc00, 0x3c01, 0x3bff}));
}

TEST(SpecialValues, Bf16SpecSubsets) {
    const Format t = Format::bf16;
    EXPECT_EQ(special_subset(t, "zeros"), (Bits{0x0000, 0x8000}));
    EXPECT_EQ(special_subset(t, "infinities"), (Bits{0x7f80, 0xff80}));
    EXPECT_EQ(special_subset(t, "nans"), (Bits{0x7fc0, 0xffc0}));
    EXPECT_EQ(special_subset(t, "subnormals"), (Bits{0x0001, 0x8001, 0x007f, 0x807f}));
    EXPECT_EQ(special_subset(t, "extremes"), (Bits{0x0080, 0x8080, 0x7f7f, 0xff7f}));
    EXPECT_EQ(special_subset(t, "near_one"), (Bits{0x3f80, 0xbf80, 0x3f81, 0x3f7f}));
}

TEST(SpecialValues, SpecSubsetsHaveTheValuesOfTheDtypeTable) {
    for (const Format t : {Format::f32, Format::f16, Format::bf16}) {
        const FormatInfo& f = info(t);
        const Bits sub = special_subset(t, "subnormals");
        EXPECT_EQ(decode(t, sub[0]), f.min_subnormal);
        EXPECT_EQ(decode(t, sub[2]), f.min_normal - f.min_subnormal);
        const Bits ext = special_subset(t, "extremes");
        EXPECT_EQ(decode(t, ext[0]), f.min_normal);
        EXPECT_EQ(decode(t, ext[3]), -f.max_finite);
        const Bits near = special_subset(t, "near_one");
        EXPECT_EQ(decode(t, near[2]), 1.0 + 2.0 * f.unit_roundoff);  // 1 + 2^(1-p)
        EXPECT_EQ(decode(t, near[3]), 1.0 - f.unit_roundoff);        // 1 - 2^-p
        EXPECT_EQ(classify(t, special_subset(t, "nans")[1]), FloatClass::quiet_nan);
        EXPECT_TRUE(sign_bit(t, special_subset(t, "nans")[1]));
    }
}

TEST(SpecialValues, SignallingNans) {
    EXPECT_EQ(special_subset(Format::f32, "snans"), (Bits{0x7fa00000, 0xffa00000, 0x7f800001, 0xff800001}));
    EXPECT_EQ(special_subset(Format::f16, "snans"), (Bits{0x7d00, 0xfd00, 0x7c01, 0xfc01}));
    EXPECT_EQ(special_subset(Format::bf16, "snans"), (Bits{0x7fa0, 0xffa0, 0x7f81, 0xff81}));
    for (const Format t : {Format::f32, Format::f16, Format::bf16})
        for (const std::uint32_t bits : special_subset(t, "snans"))
            EXPECT_EQ(classify(t, bits), FloatClass::signalling_nan) << std::hex << bits;
    // The f32 pattern is the platform's own signalling NaN.
    EXPECT_EQ(signalling_nan_bits(Format::f32),
              std::bit_cast<std::uint32_t>(std::numeric_limits<float>::signaling_NaN()));
    EXPECT_EQ(quiet_nan_bits(Format::f32), std::bit_cast<std::uint32_t>(std::numeric_limits<float>::quiet_NaN()));
}

TEST(SpecialValues, TiesToF16) {
    EXPECT_EQ(special_subset(Format::f32, "ties_to_f16"),
              (Bits{0x3f801000, 0xbf801000, 0x3f803000, 0xbf803000, 0x33000000, 0xb3000000, 0x33c00000, 0xb3c00000}));
    EXPECT_EQ(special_subset(Format::bf16, "ties_to_f16"), (Bits{0x3300, 0xb300, 0x33c0, 0xb3c0}));
    EXPECT_TRUE(special_subset(Format::f16, "ties_to_f16").empty());
}

TEST(SpecialValues, TiesToBf16) {
    EXPECT_EQ(special_subset(Format::f32, "ties_to_bf16"),
              (Bits{0x3f808000, 0xbf808000, 0x3f818000, 0xbf818000, 0x00008000, 0x80008000, 0x00018000, 0x80018000}));
    EXPECT_EQ(special_subset(Format::f16, "ties_to_bf16"), (Bits{0x3c04, 0xbc04, 0x3c0c, 0xbc0c}));
    EXPECT_TRUE(special_subset(Format::bf16, "ties_to_bf16").empty());
}

// Every tie lies halfway between two neighbouring target values (the one
// toward zero and the next) and rounds to the even one.
TEST(SpecialValues, TiesAreExactMidpointsThatRoundToEven) {
    for (const Format t : {Format::f32, Format::f16, Format::bf16}) {
        for (const auto& [target, subset] :
             {std::pair{Format::f16, "ties_to_f16"}, std::pair{Format::bf16, "ties_to_bf16"}}) {
            for (const std::uint32_t bits : special_subset(t, subset)) {
                const double x = decode(t, bits);
                const std::uint32_t inner = encode(target, x, Rounding::toward_zero);
                const std::uint32_t outer = inner + 1;  // one step further from zero, same sign
                EXPECT_EQ(std::abs(x - decode(target, inner)), std::abs(decode(target, outer) - x))
                    << "not a tie: " << std::hexfloat << x;
                const std::uint32_t rounded = encode(target, x);
                EXPECT_TRUE(rounded == inner || rounded == outer);
                EXPECT_EQ(rounded & 1u, 0u) << std::hexfloat << x;
            }
        }
    }
}

TEST(SpecialValues, OverflowEdges) {
    EXPECT_EQ(special_subset(Format::f32, "overflow_to_f16"),
              (Bits{0x477fe000, 0xc77fe000, 0x477fefff, 0xc77fefff, 0x477ff000, 0xc77ff000, 0x477ff001, 0xc77ff001}));
    EXPECT_EQ(special_subset(Format::f32, "overflow_to_bf16"),
              (Bits{0x7f7f0000, 0xff7f0000, 0x7f7f7fff, 0xff7f7fff, 0x7f7f8000, 0xff7f8000, 0x7f7f8001, 0xff7f8001}));
    EXPECT_EQ(special_subset(Format::bf16, "overflow_to_f16"), (Bits{0x477f, 0xc77f, 0x4780, 0xc780}));
    EXPECT_TRUE(special_subset(Format::f16, "overflow_to_f16").empty());
    EXPECT_TRUE(special_subset(Format::f16, "overflow_to_bf16").empty());
    EXPECT_TRUE(special_subset(Format::bf16, "overflow_to_bf16").empty());
    // f16's threshold is 65520, 65504 plus half an ulp (the cast operator's words).
    EXPECT_EQ(decode(Format::f32, 0x477ff000), 65520.0);
}

// Values below the threshold round to a finite value; from it on, to infinity.
TEST(SpecialValues, OverflowEdgesRoundAsNamed) {
    for (const Format t : {Format::f32, Format::f16, Format::bf16}) {
        for (const auto& [target, subset] :
             {std::pair{Format::f16, "overflow_to_f16"}, std::pair{Format::bf16, "overflow_to_bf16"}}) {
            const double max = info(target).max_finite;
            const double threshold = max + 0.5 * (max - decode(target, encode(target, max) - 1));
            for (const std::uint32_t bits : special_subset(t, subset)) {
                const double x = decode(t, bits);
                const double rounded = decode(target, encode(target, x));
                if (std::abs(x) < threshold) {
                    EXPECT_LE(std::abs(rounded), max) << std::hexfloat << x;
                } else {
                    EXPECT_TRUE(std::isinf(rounded)) << std::hexfloat << x;
                }
                EXPECT_EQ(std::signbit(rounded), std::signbit(x));
            }
        }
    }
}

TEST(SpecialValues, WholeSetIsTheSubsetsInOrderWithNames) {
    const std::vector<SpecialValue> all = special_values(Format::f16);
    ASSERT_GE(all.size(), 4u);
    EXPECT_EQ(all[0].subset, "zeros");
    EXPECT_EQ(all[0].name, "+0");
    EXPECT_EQ(all[1].name, "-0");
    std::size_t k = 0;
    for (const std::string_view id : special_subset_ids())
        for (const std::uint32_t bits : special_subset(Format::f16, id)) {
            ASSERT_LT(k, all.size());
            EXPECT_EQ(all[k].subset, id);
            EXPECT_EQ(all[k].bits, bits);
            ++k;
        }
    EXPECT_EQ(k, all.size());
    EXPECT_EQ(all.size(), 26u);  // 18 of SPEC, 4 sNaNs, 4 ties to bf16
}

TEST(SpecialValues, UnknownSubsetIsAnError) {
    EXPECT_THROW(special_subset(Format::f32, "denormals"), std::invalid_argument);
}

TEST(Exhaustive, ElementIHasBitsI) {
    EXPECT_EQ(exhaustive_count(Format::f16), 65536u);
    EXPECT_EQ(exhaustive_count(Format::bf16), 65536u);
    EXPECT_EQ(exhaustive_count(Format::f32), std::uint64_t{1} << 32);
    const Bits all = exhaustive(Format::bf16, 0, 65536);
    for (std::uint32_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i);
    EXPECT_EQ(exhaustive(Format::f32, 0xfffffffe, 2), (Bits{0xfffffffe, 0xffffffff}));
    EXPECT_THROW(exhaustive(Format::f16, 65535, 2), std::out_of_range);
    EXPECT_THROW(exhaustive(Format::f16, 70000, 0), std::out_of_range);
}

TEST(Positions, FirstMiddleLast) {
    EXPECT_EQ(position_index(Position::first, 7), 0u);
    EXPECT_EQ(position_index(Position::middle, 7), 3u);
    EXPECT_EQ(position_index(Position::middle, 8), 4u);
    EXPECT_EQ(position_index(Position::last, 7), 6u);
    EXPECT_EQ(position_index(Position::middle, 1), 0u);
    EXPECT_THROW(position_index(Position::first, 0), std::invalid_argument);
}

TEST(OobIndices, SpecOrderForBothIndexDtypes) {
    EXPECT_EQ(oob_indices(100, IndexType::i32), (std::array<std::int64_t, 5>{100, -1, -101, 2147483647, -2147483648}));
    EXPECT_EQ(oob_indices(100, IndexType::i64),
              (std::array<std::int64_t, 5>{100, -1, -101, std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::min()}));
    EXPECT_EQ(oob_indices(2147483647, IndexType::i32)[2], -2147483648);
    EXPECT_THROW(oob_indices(2147483648, IndexType::i32), std::invalid_argument);
    EXPECT_THROW(oob_indices(-1, IndexType::i64), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref
