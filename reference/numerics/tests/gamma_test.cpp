// gamma(n, u) = n*u / (1 - n*u), with values worked out by hand.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {
namespace {

TEST(Gamma, HandWorkedValues) {
    EXPECT_EQ(gamma(0, 0x1p-24), 0.0);
    EXPECT_EQ(gamma(1, 0.5), 1.0);         // 0.5 / 0.5
    EXPECT_EQ(gamma(3, 0.25), 3.0);        // 0.75 / 0.25
    EXPECT_EQ(gamma(64, 0x1p-7), 1.0);     // 64 * 2^-7 = 0.5: 0.5 / 0.5
    EXPECT_EQ(gamma(1024, 0x1p-11), 1.0);  // f16 unit roundoff, K = 1024: 0.5 / 0.5
    // f32 accumulator, K = 64: 2^-18 / (1 - 2^-18) = 1 / (2^18 - 1) = 1/262143.
    EXPECT_DOUBLE_EQ(gamma(64, 0x1p-24), 1.0 / 262143.0);
    // K = 2^20: 2^-4 / (1 - 2^-4) = 1/15.
    EXPECT_DOUBLE_EQ(gamma(1 << 20, 0x1p-24), 1.0 / 15.0);
}

TEST(Gamma, UndefinedWhereNuReachesOne) {
    EXPECT_THROW(gamma(2, 0.5), std::invalid_argument);              // n*u = 1
    EXPECT_THROW(gamma(1 << 24, 0x1p-24), std::invalid_argument);    // n*u = 1
    EXPECT_THROW(gamma(300, 0x1p-8), std::invalid_argument);         // 300/256 > 1
    EXPECT_THROW(gamma(-1, 0x1p-24), std::invalid_argument);
    EXPECT_THROW(gamma(1, -0x1p-24), std::invalid_argument);
    EXPECT_NO_THROW(gamma(255, 0x1p-8));                             // 255/256 < 1
}

}  // namespace
}  // namespace kcs::ref
