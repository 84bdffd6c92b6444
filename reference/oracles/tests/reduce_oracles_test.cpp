// reduce_sum against 256-bit MPFR (random, cancelling, mixed magnitudes,
// ones) and reduce_max's IEEE 754-2019 semantics.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "big_float.hpp"
#include "catalog_tolerance.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "ratio_tracker.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_sum_against_mpfr(const std::vector<double>& x, const RowShape& shape,
                            const std::string& name) {
    const ReduceSumResult result = reduce_sum_oracle(x, shape);
    RatioTracker catalog(name + " vs 1e-3 * gamma(K, 2^-24) * M, K=" + std::to_string(shape.length));
    RatioTracker documented(name + " vs documented bound");
    for (std::size_t r = 0; r < shape.rows; ++r) {
        BigFloat exact, magnitude;
        for (std::size_t k = 0; k < shape.length; ++k) {
            exact += BigFloat(x[r * shape.length + k]);
            magnitude += abs(BigFloat(x[r * shape.length + k]));
        }
        const double m = magnitude.to_double();
        const double error = distance(result.value[r], exact);
        const std::string where = "row " + std::to_string(r);
        catalog.expect_within(error, kOracleShare * reduction_floor(shape.length, m), where);
        documented.expect_within(
            error,
            kF64Roundoff * std::fabs(exact.to_double()) +
                std::pow(gamma_f64(shape.length - 1), 2) * m * (1 + 1e-12),
            where);
        EXPECT_LE(std::fabs(result.magnitude[r] - m), gamma_f64(shape.length) * m) << where;
    }
}

TEST(ReduceSumOracle, RandomNormalAcrossK) {
    for (const std::size_t k : {1u, 2u, 64u, 1000u, 4096u}) {
        SplitMix64 rng(k);
        const RowShape shape{.rows = 6, .length = k};
        std::vector<double> x(shape.rows * k);
        for (double& v : x) v = to_f32(rng.normal());
        check_sum_against_mpfr(x, shape, "normal");
    }
}

// x and -x pairs in random order plus one tiny value; also pairs +L, -L
// with L = 2^100 among normal values (C-ORD-01's adversarial data set 2).
TEST(ReduceSumOracle, HeavyCancellation) {
    SplitMix64 rng(7);
    const std::size_t k = 3001;
    const RowShape shape{.rows = 4, .length = k};
    std::vector<double> x(shape.rows * k);
    for (std::size_t r = 0; r < shape.rows; ++r) {
        double* row = x.data() + r * k;
        for (std::size_t t = 0; t + 1 < k; t += 2) {
            row[t] = to_f32(rng.normal() * std::ldexp(1.0, static_cast<int>(rng.below(80))));
            row[t + 1] = -row[t];
        }
        row[k - 1] = r == 3 ? 0x1p-149 : to_f32(1e-30 * rng.uniform(1, 2));
        if (r == 2) {
            row[0] = 0x1p100;
            row[k / 2] = -0x1p100;
        }
        for (std::size_t t = k - 1; t > 0; --t) std::swap(row[t], row[rng.below(t + 1)]);
    }
    check_sum_against_mpfr(x, shape, "cancellation");
}

TEST(ReduceSumOracle, MixedMagnitudes) {
    SplitMix64 rng(9);
    const RowShape shape{.rows = 5, .length = 2048};
    std::vector<double> x(shape.rows * shape.length);
    for (double& v : x) {
        const double scale = rng.below(2) == 0 ? 1e30 : 1e-30;
        v = to_f32((rng.below(2) == 0 ? -1 : 1) * scale * rng.uniform(0.5, 2));
    }
    check_sum_against_mpfr(x, shape, "mixed magnitudes");
}

TEST(ReduceSumOracle, SumsOfOnesAreExact) {
    for (const std::size_t k : {256u, 2048u, 2049u, 16384u, 65537u}) {
        const std::vector<double> ones(k, 1.0);
        const ReduceSumResult r = reduce_sum_oracle(ones, {.rows = 1, .length = k});
        EXPECT_EQ(r.value[0], static_cast<double>(k));
        EXPECT_EQ(r.magnitude[0], static_cast<double>(k));
    }
}

TEST(ReduceSumOracle, SpecialValuesFollowIeee) {
    const std::vector<double> x = {1,    kInf, 2,    kInf,   // an infinity wins
                                   -kInf, 3,   1,    kNaN,   // NaN
                                   4,    -0.0, -0.0, -0.0,   // -0 terms vanish
                                   -0.0, 0.0,  5.0,  -5.0};  // exact zero: +0
    const ReduceSumResult r = reduce_sum_oracle(x, {.rows = 4, .length = 4});
    EXPECT_EQ(r.value[0], kInf);
    EXPECT_TRUE(std::isnan(r.value[1]));
    EXPECT_EQ(r.value[2], 4.0);
    EXPECT_EQ(r.value[3], 0.0);
    EXPECT_FALSE(std::signbit(r.value[3]));  // -0 + 0 + 5 - 5 = +0
    const ReduceSumResult negative_zeros =
        reduce_sum_oracle(std::vector<double>(3, -0.0), {.rows = 1, .length = 3});
    EXPECT_TRUE(std::signbit(negative_zeros.value[0]));
}

TEST(ReduceSumOracle, RejectsEmptyRowsAndMismatchedSizes) {
    EXPECT_THROW(reduce_sum_oracle({}, {.rows = 1, .length = 0}), std::invalid_argument);
    EXPECT_THROW(reduce_sum_oracle(std::vector<double>(5), {.rows = 2, .length = 3}),
                 std::invalid_argument);
}

TEST(ReduceMaxOracle, FollowsIeee754_2019Maximum) {
    const std::vector<double> x = {
        1,     kNaN, 3,     // NaN in the middle
        kNaN,  5,    6,     // first
        7,     8,    kNaN,  // last
        -0.0,  0.0,  -0.0,  // +0 beats -0
        -0.0,  -0.0, -0.0,  // all -0
        -kInf, -kInf, -kInf,
        -kInf, -3,   -2,
        kInf,  1,    kNaN,
    };
    const std::vector<double> y = reduce_max_oracle(x, {.rows = 8, .length = 3});
    EXPECT_TRUE(std::isnan(y[0]));
    EXPECT_TRUE(std::isnan(y[1]));
    EXPECT_TRUE(std::isnan(y[2]));
    EXPECT_EQ(y[3], 0.0);
    EXPECT_FALSE(std::signbit(y[3]));
    EXPECT_TRUE(std::signbit(y[4]));
    EXPECT_EQ(y[5], -kInf);
    EXPECT_EQ(y[6], -2.0);
    EXPECT_TRUE(std::isnan(y[7]));
}

TEST(ReduceMaxOracle, DoesNotDependOnScanOrder) {
    SplitMix64 rng(3);
    std::vector<double> x(1000);
    for (double& v : x) v = to_f32(rng.normal());
    x[417] = 9.5;
    const double forward = reduce_max_oracle(x, {.rows = 1, .length = 1000})[0];
    std::vector<double> reversed(x.rbegin(), x.rend());
    EXPECT_EQ(forward, 9.5);
    EXPECT_EQ(reduce_max_oracle(reversed, {.rows = 1, .length = 1000})[0], 9.5);
}

}  // namespace
}  // namespace kcs::ref::test
