// dot_bound (C-PRC-01) with hand-worked values. Most cases use K = 64 and
// u_acc = 2^-7, for which gamma(K, u_acc) = 0.5 / 0.5 = 1 exactly; with
// M = 1 and y* = 0 the normalised error e equals the output y, so the
// mean and variance below follow from the chosen outputs by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {
namespace {

// C-PRC-01 tolerance.params.
constexpr DotBoundParams kPrc01{.c = 1.0, .min_outputs = 1000, .mean_z = 6.0, .var_factor = 0.667};
constexpr std::int64_t kK = 64;
constexpr double kUnitGammaU = 0x1p-7;  // gamma(64, 2^-7) = 1

struct Outputs {
    std::vector<double> got, exact, magnitude;
};

// N outputs with y* = 0 and M = 1, so e_i = got_i.
Outputs normalised_errors(std::vector<double> e) {
    Outputs o;
    o.got = std::move(e);
    o.exact.assign(o.got.size(), 0.0);
    o.magnitude.assign(o.got.size(), 1.0);
    return o;
}

DotBoundResult check(const Outputs& o, DotStatistics statistics = DotStatistics::apply) {
    return check_dot_bound(o.got, o.exact, o.magnitude, kK, kUnitGammaU, 0.0, kPrc01, statistics);
}

std::vector<double> alternating(double a, std::size_t n) {
    std::vector<double> e(n);
    for (std::size_t i = 0; i < n; ++i) e[i] = i % 2 == 0 ? a : -a;
    return e;
}

TEST(DotBound, LimitsForK64AndN1000) {
    const DotBoundResult r = check(normalised_errors(alternating(0.1, 1000)));
    // var_factor / K = 0.667 / 64 = 0.010421875.
    EXPECT_DOUBLE_EQ(r.variance_limit, 0.010421875);
    // mean_z * sqrt(var_factor / (K N)) = 6 * sqrt(0.667 / 64000) = 6 * sqrt(1.0421875e-5)
    //   = 6 * 0.00322829289... = 0.01936975735...
    EXPECT_NEAR(r.mean_limit, 0.01936975735, 1e-10);
}

TEST(DotBound, UnbiasedSmallErrorsPass) {
    // e = +0.1, -0.1, ...: mean 0, variance (1/N) * N * 0.01 = 0.01 <= 0.010421875.
    const DotBoundResult r = check(normalised_errors(alternating(0.1, 1000)));
    EXPECT_TRUE(r.pass());
    EXPECT_TRUE(r.statistics_applied);
    EXPECT_EQ(r.statistics_outputs, 1000u);
    EXPECT_EQ(r.mean, 0.0);
    EXPECT_NEAR(r.variance, 0.01, 1e-15);
    EXPECT_DOUBLE_EQ(r.worst_ratio, 0.1);  // |e| / 1
}

TEST(DotBound, OneOutlierGivesHandWorkedMeanAndVariance) {
    // 999 zeros and e = 0.5 at index 417: mean = 0.5/1000 = 0.0005;
    // variance = ((0.5 - 0.0005)^2 + 999 * 0.0005^2) / 1000
    //          = (0.24950025 + 0.00024975) / 1000 = 0.00024975.
    std::vector<double> e(1000, 0.0);
    e[417] = 0.5;
    const DotBoundResult r = check(normalised_errors(e));
    EXPECT_TRUE(r.pass());
    EXPECT_DOUBLE_EQ(r.mean, 0.0005);
    EXPECT_NEAR(r.variance, 0.00024975, 1e-15);
    EXPECT_EQ(r.worst_index, 417u);
    EXPECT_EQ(r.worst_ratio, 0.5);
    EXPECT_EQ(r.worst_error, 0.5);
    EXPECT_EQ(r.worst_bound, 1.0);  // c * gamma * M = 1 * 1 * 1
}

TEST(DotBound, BiasedAccumulatorPassesElementsButFailsTheMean) {
    // Every e = 0.5 (a truncating accumulator): each element within its bound
    // (0.5 <= 1), variance 0, but |mean| = 0.5 > 0.0194: the biased-rounding signature.
    const Outputs o = normalised_errors(std::vector<double>(1000, 0.5));
    const DotBoundResult r = check(o);
    EXPECT_TRUE(r.elements_pass);
    EXPECT_TRUE(r.variance_pass);
    EXPECT_FALSE(r.mean_pass);
    EXPECT_FALSE(r.pass());
    EXPECT_EQ(r.mean, 0.5);
    // Where statistics do not apply (a narrower output), the same outputs pass.
    const DotBoundResult skipped = check(o, DotStatistics::skip);
    EXPECT_FALSE(skipped.statistics_applied);
    EXPECT_TRUE(skipped.pass());
}

TEST(DotBound, TooWideSpreadFailsTheVariance) {
    // e = +-0.2: variance 0.04 > 0.010421875; mean 0.
    const DotBoundResult r = check(normalised_errors(alternating(0.2, 1000)));
    EXPECT_TRUE(r.elements_pass);
    EXPECT_TRUE(r.mean_pass);
    EXPECT_FALSE(r.variance_pass);
    EXPECT_NEAR(r.variance, 0.04, 1e-15);
}

TEST(DotBound, TooFewOutputsFailTheCount) {
    const DotBoundResult r = check(normalised_errors(alternating(0.1, 999)));
    EXPECT_FALSE(r.count_pass);
    EXPECT_FALSE(r.pass());
    // Outputs with M = 0 carry no e and do not count: 1000 outputs, one with M = 0.
    Outputs o = normalised_errors(alternating(0.1, 1000));
    o.got[5] = 0;
    o.magnitude[5] = 0;
    const DotBoundResult r2 = check(o);
    EXPECT_EQ(r2.statistics_outputs, 999u);
    EXPECT_TRUE(r2.elements_pass);  // y = y* = 0 meets the bound 0
    EXPECT_FALSE(r2.count_pass);
}

TEST(DotBound, ElementBeyondItsBoundFailsWithItsRatio) {
    std::vector<double> e = alternating(0.1, 1000);
    e[3] = -1.5;  // |e| = 1.5 > c * gamma * M = 1
    const DotBoundResult r = check(normalised_errors(e));
    EXPECT_FALSE(r.elements_pass);
    EXPECT_EQ(r.elements_failed, 1u);
    EXPECT_EQ(r.worst_index, 3u);
    EXPECT_EQ(r.worst_ratio, 1.5);
    EXPECT_EQ(r.worst_error, 1.5);
    EXPECT_EQ(r.worst_bound, 1.0);
}

TEST(DotBound, ZeroBoundToleratesOnlyExactResults) {
    // M = 0 and y* = 0 (u_out = 0 here): the bound is 0, any error fails with ratio inf.
    Outputs o = normalised_errors(alternating(0.1, 1000));
    o.magnitude[7] = 0;
    o.got[7] = 1e-300;
    const DotBoundResult r = check(o);
    EXPECT_FALSE(r.elements_pass);
    EXPECT_EQ(r.worst_index, 7u);
    EXPECT_EQ(r.worst_ratio, std::numeric_limits<double>::infinity());
}

TEST(DotBound, NaNOutputFailsElementAndStatistics) {
    Outputs o = normalised_errors(alternating(0.1, 1000));
    o.got[9] = std::numeric_limits<double>::quiet_NaN();
    const DotBoundResult r = check(o);
    EXPECT_FALSE(r.elements_pass);
    EXPECT_EQ(r.worst_index, 9u);
    EXPECT_EQ(r.worst_ratio, std::numeric_limits<double>::infinity());
    EXPECT_FALSE(r.mean_pass);
    EXPECT_FALSE(r.variance_pass);
}

TEST(DotBound, NarrowOutputAddsItsOwnRounding) {
    // f32 accumulator, f16 output, K = 64, M = y* = 1000:
    //   bound = gamma(64, 2^-24) * 1000 + 2^-11 * 1000
    //         = 1000/262143 + 1000/2048 = 0.0038147... + 0.48828125 = 0.4920959...
    EXPECT_NEAR(dot_bound_tolerance(kPrc01, 64, 0x1p-24, 0x1p-11, 1000, 1000), 0.49209596, 1e-8);
    const std::vector<double> exact{1000, -1000}, magnitude{1000, 1000};
    const std::vector<double> within{1000.49, -1000.49}, beyond{1000.49, -1000.493};
    EXPECT_TRUE(check_dot_bound(within, exact, magnitude, 64, 0x1p-24, 0x1p-11, kPrc01, DotStatistics::skip).pass());
    const DotBoundResult r =
        check_dot_bound(beyond, exact, magnitude, 64, 0x1p-24, 0x1p-11, kPrc01, DotStatistics::skip);
    EXPECT_FALSE(r.pass());
    EXPECT_EQ(r.worst_index, 1u);
}

TEST(DotBound, RejectsMalformedOracleData) {
    const std::vector<double> one{1.0}, two{1.0, 2.0}, inf{std::numeric_limits<double>::infinity()};
    EXPECT_THROW(check_dot_bound(one, two, two, kK, 0x1p-24, 0, kPrc01, DotStatistics::skip), std::invalid_argument);
    EXPECT_THROW(check_dot_bound(one, inf, one, kK, 0x1p-24, 0, kPrc01, DotStatistics::skip), std::invalid_argument);
    EXPECT_THROW(check_dot_bound(one, one, one, 1 << 24, 0x1p-24, 0, kPrc01, DotStatistics::skip),
                 std::invalid_argument);  // gamma undefined
}

}  // namespace
}  // namespace kcs::ref
