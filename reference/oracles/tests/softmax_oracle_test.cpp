// softmax oracle against 256-bit MPFR: normal rows, logits past exp's
// overflow threshold, huge gaps, masks, and the special rows.
#include "kcs/reference/softmax_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "big_float.hpp"
#include "catalog_tolerance.hpp"
#include "ratio_tracker.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kF32Max = 0x1.fffffep127;

// Rows without NaN and with at least one finite entry.
void check_against_mpfr(const std::vector<double>& x, const RowShape& shape,
                        const std::string& name) {
    const SoftmaxResult result = softmax_oracle(x, shape, MaskedRow::nan);
    RatioTracker catalog(name + " vs 1e-3 * gamma(L, 2^-24) * (y* + T), L=" +
                         std::to_string(shape.length));
    RatioTracker documented(name + " vs documented bound");
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const auto row = std::span(x).subspan(r * shape.length, shape.length);
        const double m = *std::max_element(row.begin(), row.end());
        EXPECT_EQ(result.row_max[r], m);
        std::vector<BigFloat> e;
        BigFloat sum;
        for (const double v : row) {
            e.push_back(exp(BigFloat(v) - BigFloat(m)));
            sum += e.back();
        }
        EXPECT_LE(distance(result.denominator[r], sum), 5 * kF64Roundoff * sum.to_double());
        for (std::size_t i = 0; i < row.size(); ++i) {
            const BigFloat exact = e[i] / sum;
            const double y = exact.to_double();
            const double error = distance(result.value[r * shape.length + i], exact);
            const std::string where = "row " + std::to_string(r) + " i " + std::to_string(i);
            catalog.expect_within(error, kOracleShare * softmax_floor(shape.length, y), where);
            documented.expect_within(error, 9 * kF64Roundoff * y + 0x1p-1073, where);
            if (row[i] == -kInf) {  // masked: exactly +0
                EXPECT_EQ(std::bit_cast<std::uint64_t>(result.value[r * shape.length + i]), 0u);
            }
        }
    }
}

template <class Draw>
std::vector<double> rows_of(const RowShape& shape, Draw draw) {
    std::vector<double> x(shape.rows * shape.length);
    for (double& v : x) v = to_f32(draw());
    return x;
}

TEST(SoftmaxOracle, NormalRows) {
    for (const std::size_t length : {1u, 2u, 7u, 128u, 1000u, 4096u}) {
        SplitMix64 rng(length);
        const RowShape shape{.rows = 3, .length = length};
        check_against_mpfr(rows_of(shape, [&] { return rng.normal(); }), shape, "normal(0,1)");
    }
}

// C-PRC-02's data sets 2 to 4: past f32 exp's overflow (88.72), past f16's
// (11.09), every entry f32's largest finite, one such entry among normals.
TEST(SoftmaxOracle, LogitsPastOverflowThresholds) {
    SplitMix64 rng(2);
    const RowShape shape{.rows = 2, .length = 1000};
    check_against_mpfr(rows_of(shape, [&] { return rng.uniform(-110, 110); }), shape,
                       "uniform(-110,110)");
    check_against_mpfr(rows_of(shape, [&] { return rng.uniform(-1000, 1000); }), shape,
                       "uniform(-1000,1000)");
    check_against_mpfr(std::vector<double>(128, kF32Max), {.rows = 1, .length = 128},
                       "all f32 max");
    std::vector<double> one_huge = rows_of({.rows = 1, .length = 128}, [&] { return rng.normal(); });
    one_huge[77] = kF32Max;
    check_against_mpfr(one_huge, {.rows = 1, .length = 128}, "one f32 max among normal");
}

// Gaps that push exp(x - m) through f64's subnormal range (708 .. 745) and
// below it: the catalog's underflow term T governs there.
TEST(SoftmaxOracle, GapsThroughTheSubnormalRange) {
    std::vector<double> x;
    for (double gap = 0; gap < 800; gap += 3.25) x.push_back(-gap);
    check_against_mpfr(x, {.rows = 1, .length = x.size()}, "gaps 0..800");
}

TEST(SoftmaxOracle, MaskedEntriesGetExactlyPositiveZero) {
    SplitMix64 rng(5);
    const RowShape shape{.rows = 4, .length = 257};
    std::vector<double> x = rows_of(shape, [&] { return 4 * rng.normal(); });
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (rng.below(3) == 0) x[i] = -kInf;
    }
    x[0] = 1.0;  // row 0 keeps a finite entry in any case
    check_against_mpfr(x, shape, "masked");
}

TEST(SoftmaxOracle, SpecialRows) {
    const std::vector<double> x = {
        -kInf, -kInf, -kInf,  // fully masked
        1.0,   kNaN,  2.0,    // NaN
        kInf,  1.0,   -kInf,  // +inf: inf - inf in the definition
        -kInf, 0.5,   -kInf,  // one unmasked entry: probability 1
    };
    const RowShape shape{.rows = 4, .length = 3};
    const SoftmaxResult nan_claim = softmax_oracle(x, shape, MaskedRow::nan);
    const SoftmaxResult zero_claim = softmax_oracle(x, shape, MaskedRow::zero);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(std::isnan(nan_claim.value[i]));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(zero_claim.value[i]), 0u);  // +0
        EXPECT_TRUE(std::isnan(nan_claim.value[3 + i]));
        EXPECT_TRUE(std::isnan(zero_claim.value[3 + i]));
        EXPECT_TRUE(std::isnan(nan_claim.value[6 + i]));
    }
    EXPECT_EQ(nan_claim.row_max[0], -kInf);
    EXPECT_EQ(nan_claim.value[9], 0.0);
    EXPECT_EQ(nan_claim.value[10], 1.0);
    EXPECT_EQ(nan_claim.value[11], 0.0);
    EXPECT_EQ(nan_claim.denominator[3], 1.0);
}

}  // namespace
}  // namespace kcs::ref::test
