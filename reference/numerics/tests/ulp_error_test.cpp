// ulp_error and check_ulp_bound, with hand-worked values in f16 (1.0 is
// 0x3C00, spacing 2^-10 in [1, 2) and 2^-11 in [0.5, 1); 65504 is the
// largest finite, spacing 32 in its binade).
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(UlpError, NormalRange) {
    EXPECT_EQ(ulp_error(Format::f16, 0x3C01, 1.0), 1.0);            // 2^-10 / 2^-10
    EXPECT_EQ(ulp_error(Format::f16, 0x3C00, 1.0 + 0x1p-11), 0.5);  // 2^-11 / 2^-10
    EXPECT_EQ(ulp_error(Format::f16, 0x3C00, 1.0), 0.0);
    // Below 1 the spacing is 2^-11: reference 1 - 2^-12, got 1: 2^-12 / 2^-11.
    EXPECT_EQ(ulp_error(Format::f16, 0x3C00, 1.0 - 0x1p-12), 0.5);
    EXPECT_EQ(ulp_error(Format::f16, 0xBC02, -1.0), 2.0);
}

TEST(UlpError, AtAPowerOfTwoTheBinadeAboveCounts) {
    // reference exactly 1.0, got 1 - 2^-11 (0x3BFF): 2^-11 measured in 2^-10.
    EXPECT_EQ(ulp_error(Format::f16, 0x3BFF, 1.0), 0.5);
}

TEST(UlpError, SubnormalsAndZeros) {
    EXPECT_EQ(ulp_error(Format::f16, 0x0001, 1.5 * 0x1p-24), 0.5);  // 0.5 * 2^-24 / 2^-24
    EXPECT_EQ(ulp_error(Format::f16, 0x0001, 0.0), 1.0);
    EXPECT_EQ(ulp_error(Format::f16, 0x8000, 0.0), 0.0);  // -0 equals +0
    EXPECT_EQ(ulp_error(Format::bf16, 0x0003, 0x1p-133), 2.0);
}

TEST(UlpError, InfinitiesStandOneBinadeBeyondTheRange) {
    // +-inf are +-2^16 for f16, and ulp_at(inf) = ulp(65504) = 32.
    EXPECT_EQ(ulp_error(Format::f16, 0x7C00, kInf), 0.0);
    EXPECT_EQ(ulp_error(Format::f16, 0x7BFF, kInf), 1.0);      // |65504 - 65536| / 32
    EXPECT_EQ(ulp_error(Format::f16, 0x7C00, 65504.0), 1.0);   // |65536 - 65504| / 32
    EXPECT_EQ(ulp_error(Format::f16, 0xFC00, kInf), 4096.0);   // 131072 / 32
    EXPECT_EQ(ulp_error(Format::f16, 0x7C00, 65520.0), 0.5);   // the overflow midpoint: |65536 - 65520| / 32
}

TEST(UlpError, NaNs) {
    EXPECT_EQ(ulp_error(Format::f16, 0x7E00, kNaN), 0.0);
    EXPECT_EQ(ulp_error(Format::f16, 0xFC01, kNaN), 0.0);  // any NaN, any sign
    EXPECT_EQ(ulp_error(Format::f16, 0x3C00, kNaN), kInf);
    EXPECT_EQ(ulp_error(Format::f16, 0x7E00, 1.0), kInf);
}

TEST(UlpBound, ReportsWorstElementAndFailures) {
    // errors 0, 1, 3, 0.5 against bound 1: one failure, the worst at index 2.
    const std::vector<std::uint32_t> got{0x3C00, 0x3C01, 0x3C03, 0x3C00};
    const std::vector<double> reference{1.0, 1.0, 1.0, 1.0 + 0x1p-11};
    const UlpBoundResult r = check_ulp_bound(Format::f16, got, reference, 1.0);
    EXPECT_FALSE(r.pass);
    EXPECT_EQ(r.elements_failed, 1u);
    EXPECT_EQ(r.worst_index, 2u);
    EXPECT_EQ(r.worst_ulp_error, 3.0);
    EXPECT_TRUE(check_ulp_bound(Format::f16, got, reference, 3.0).pass);
    // Correct rounding: bound 0.5 against the exact value.
    const std::vector<std::uint32_t> rounded{0x3C00};
    EXPECT_TRUE(check_ulp_bound(Format::f16, rounded, std::vector<double>{1.0 + 0x1p-11}, 0.5).pass);
}

}  // namespace
}  // namespace kcs::ref
