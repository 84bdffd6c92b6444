// Philox4x32-10: the known answers of SPEC.md section 4, at compile time and
// at run time, and the key/counter layout.
#include "kcs/reference/philox.hpp"

#include <gtest/gtest.h>

namespace kcs::ref {
namespace {

constexpr PhiloxBlock kZeroAnswer{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8};
constexpr PhiloxBlock kOnesAnswer{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd};
constexpr PhiloxBlock kPiAnswer{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
constexpr PhiloxBlock kSeedOneAnswer{0xe3e80670, 0xe50a0ebc, 0x95f222c0, 0xb615aa27};

// The generator is constexpr: a wrong round fails the build.
static_assert(philox4x32_10({0, 0, 0, 0}, {0, 0}) == kZeroAnswer);
static_assert(philox4x32_10({0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff}) ==
              kOnesAnswer);
static_assert(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0}) ==
              kPiAnswer);
static_assert(philox_block(1, 0, 0, 0) == kSeedOneAnswer);

TEST(Philox, ReproducesSpecKnownAnswersAtRunTime) {
    // volatile inputs keep the compiler from folding the calls.
    volatile std::uint32_t zero = 0, ones = 0xffffffff;
    EXPECT_EQ(philox4x32_10({zero, zero, zero, zero}, {zero, zero}), kZeroAnswer);
    EXPECT_EQ(philox4x32_10({ones, ones, ones, ones}, {ones, ones}), kOnesAnswer);
    EXPECT_EQ(philox4x32_10({0x243f6a88, 0x85a308d3, 0x13198a2e, zero + 0x03707344u}, {0xa4093822, 0x299f31d0}),
              kPiAnswer);
    volatile std::uint64_t seed = 1;
    EXPECT_EQ(philox_block(seed, 0, 0, 0), kSeedOneAnswer);
}

TEST(Philox, BlockPlacesSeedIndexTensorAndStreamAsSpecified) {
    const std::uint64_t seed = 0x0123456789abcdefu;
    const std::uint64_t index = 0xfedcba9876543210u;
    EXPECT_EQ(philox_block(seed, 7, 9, index),
              philox4x32_10({0x76543210, 0xfedcba98, 7, 9}, {0x89abcdef, 0x01234567}));
}

TEST(Philox, EveryCounterWordAndKeyWordChangesTheBlock) {
    const PhiloxBlock base = philox4x32_10({1, 2, 3, 4}, {5, 6});
    EXPECT_NE(philox4x32_10({0, 2, 3, 4}, {5, 6}), base);
    EXPECT_NE(philox4x32_10({1, 0, 3, 4}, {5, 6}), base);
    EXPECT_NE(philox4x32_10({1, 2, 0, 4}, {5, 6}), base);
    EXPECT_NE(philox4x32_10({1, 2, 3, 0}, {5, 6}), base);
    EXPECT_NE(philox4x32_10({1, 2, 3, 4}, {0, 6}), base);
    EXPECT_NE(philox4x32_10({1, 2, 3, 4}, {5, 0}), base);
}

TEST(Philox, HalvesOfA64BitValue) {
    EXPECT_EQ(lo32(0x0123456789abcdefu), 0x89abcdefu);
    EXPECT_EQ(hi32(0x0123456789abcdefu), 0x01234567u);
}

TEST(Philox, StreamsAreThoseOfSpec) {
    EXPECT_EQ(kValueStream, 0u);
    EXPECT_EQ(kCanaryStream, 1u);
    EXPECT_EQ(kFirstPermutationStream, 2u);
    EXPECT_EQ(auxiliary_stream(0), 65536u);
    EXPECT_EQ(auxiliary_stream(1), 65537u);
    EXPECT_EQ(kGeneratorName, "philox4x32-10");
}

TEST(Seeds, CaseSeedsAreBasePlusJModulo2To64) {
    EXPECT_EQ(case_seed(1000, 0), 1000u);
    EXPECT_EQ(case_seed(1000, 2), 1002u);
    EXPECT_EQ(case_seed(0xffffffffffffffffu, 1), 0u);
    EXPECT_EQ(case_seed(0xfffffffffffffffeu, 3), 1u);
}

}  // namespace
}  // namespace kcs::ref
