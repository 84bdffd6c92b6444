// Seeded permutations: a hand-traced case, and every result a permutation.
#include "kcs/reference/permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "kcs/reference/philox.hpp"

namespace kcs::ref {
namespace {

TEST(Permutation, HandTracedSeedSevenOfFiveElements) {
    // Seed 7, n = 5, j = 0: the blocks at counter (i, 0, 0, 2) lead with
    //   i = 4: 0x90c88641 -> 0.5656 of 2^32, r = floor(0.5656·5) = 2: swap 4,2 -> 0 1 4 3 2
    //   i = 3: 0x1867e18a -> 0.0953,          r = floor(0.0953·4) = 0: swap 3,0 -> 3 1 4 0 2
    //   i = 2: 0x5869396d -> 0.3455,          r = floor(0.3455·3) = 1: swap 2,1 -> 3 4 1 0 2
    //   i = 1: 0x092c163f -> 0.0358,          r = floor(0.0358·2) = 0: swap 1,0 -> 4 3 1 0 2
    EXPECT_EQ(philox_block(7, 0, 2, 4)[0], 0x90c88641u);
    EXPECT_EQ(philox_block(7, 0, 2, 3)[0], 0x1867e18au);
    EXPECT_EQ(philox_block(7, 0, 2, 2)[0], 0x5869396du);
    EXPECT_EQ(philox_block(7, 0, 2, 1)[0], 0x092c163fu);
    EXPECT_EQ(permutation(7, 5, 0), (std::vector<std::uint64_t>{4, 3, 1, 0, 2}));
}

TEST(Permutation, IsAPermutationForEverySize) {
    for (std::uint64_t n : {2u, 3u, 10u, 100u, 1000u, 4097u}) {
        for (std::uint32_t j = 0; j < 4; ++j) {
            std::vector<std::uint64_t> p = permutation(123, n, j);
            ASSERT_EQ(p.size(), n);
            std::sort(p.begin(), p.end());
            std::vector<std::uint64_t> identity(n);
            std::iota(identity.begin(), identity.end(), std::uint64_t{0});
            EXPECT_EQ(p, identity) << "n = " << n << ", j = " << j;
        }
    }
}

TEST(Permutation, DifferentJAndSeedsGiveDifferentOrders) {
    EXPECT_NE(permutation(123, 1000, 0), permutation(123, 1000, 1));
    EXPECT_NE(permutation(123, 1000, 0), permutation(124, 1000, 0));
    EXPECT_EQ(permutation(123, 1000, 3), permutation(123, 1000, 3));
}

TEST(Permutation, EveryPositionIsReachedForSmallN) {
    // Over 600 permutations of 3 elements all 6 orders appear.
    std::vector<std::vector<std::uint64_t>> seen;
    for (std::uint32_t j = 0; j < 600; ++j) {
        const std::vector<std::uint64_t> p = permutation(5, 3, j);
        if (std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p);
    }
    EXPECT_EQ(seen.size(), 6u);
}

TEST(Permutation, TrivialSizes) {
    EXPECT_TRUE(permutation(1, 0, 0).empty());
    EXPECT_EQ(permutation(1, 1, 0), (std::vector<std::uint64_t>{0}));
}

TEST(Permutation, StreamsStopBelowTheAuxiliaryStreams) {
    EXPECT_EQ(kFirstPermutationStream + kMaxPermutation, kFirstAuxiliaryStream - 1);
    EXPECT_NO_THROW(permutation(1, 4, kMaxPermutation));
    EXPECT_THROW(permutation(1, 4, kMaxPermutation + 1), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref
