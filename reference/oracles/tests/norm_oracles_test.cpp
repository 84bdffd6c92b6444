// layernorm and rmsnorm oracles against 256-bit MPFR: normal rows, rows
// with mean 1e4 and spread 1e-2, constant rows, large values.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "big_float.hpp"
#include "catalog_tolerance.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "ratio_tracker.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

constexpr double kEps = 1e-5;

struct NormProblem {
    RowShape shape;
    std::vector<double> x, gamma, beta;
};

template <class Draw>
NormProblem problem(RowShape shape, Draw draw, std::uint64_t seed, bool unit_affine) {
    SplitMix64 rng(seed);
    NormProblem p{shape, std::vector<double>(shape.rows * shape.length),
                  std::vector<double>(shape.length, 1.0), std::vector<double>(shape.length, 0.0)};
    for (double& v : p.x) v = draw();
    if (!unit_affine) {
        for (double& v : p.gamma) v = to_f32(rng.normal());
        for (double& v : p.beta) v = to_f32(rng.normal());
    }
    return p;
}

void check_layernorm(const NormProblem& p, const std::string& name) {
    const std::size_t n = p.shape.length;
    const LayernormResult result = layernorm_oracle(p.x, p.gamma, p.beta, p.shape, kEps);
    ASSERT_EQ(result.eps, to_f32(kEps));
    RatioTracker catalog(name + " vs 1e-3 * layernorm floor, L=" + std::to_string(n));
    RatioTracker documented(name + " vs documented bound");
    const double g2 = std::pow(gamma_f64(n), 2);
    for (std::size_t r = 0; r < p.shape.rows; ++r) {
        const auto row = std::span(p.x).subspan(r * n, n);
        BigFloat sum, abs_sum;
        for (const double v : row) {
            sum += BigFloat(v);
            abs_sum += abs(BigFloat(v));
        }
        const BigFloat mean = sum / BigFloat(static_cast<double>(n));
        BigFloat squares;
        for (const double v : row) squares += (BigFloat(v) - mean) * (BigFloat(v) - mean);
        const BigFloat variance = squares / BigFloat(static_cast<double>(n));
        const BigFloat e = sqrt(variance + BigFloat(result.eps));
        const double mean_abs = (abs_sum / BigFloat(static_cast<double>(n))).to_double();
        const double var = variance.to_double();

        EXPECT_LE(distance(result.variance[r], variance),
                  5 * kF64Roundoff * var + 4 * std::pow(g2 * mean_abs, 2))
            << name << " row " << r;
        EXPECT_LE(distance(result.mean[r], mean),
                  kF64Roundoff * std::fabs(mean.to_double()) + g2 * mean_abs);
        for (std::size_t i = 0; i < n; ++i) {
            const BigFloat z = (BigFloat(row[i]) - mean) / e;
            const BigFloat y = z * BigFloat(p.gamma[i]) + BigFloat(p.beta[i]);
            const double zd = z.to_double();
            const double error = distance(result.value[r * n + i], y);
            const std::string where = "row " + std::to_string(r) + " i " + std::to_string(i);
            catalog.expect_within(
                error,
                kOracleShare * layernorm_floor(n, p.gamma[i], p.beta[i], zd, mean_abs, e.to_double()),
                where);
            documented.expect_within(
                error,
                9 * kF64Roundoff * (std::fabs(p.gamma[i] * zd) + std::fabs(p.beta[i])) +
                    2 * g2 * std::fabs(p.gamma[i]) * mean_abs / e.to_double(),
                where);
        }
    }
}

void check_rmsnorm(const NormProblem& p, const std::string& name) {
    const std::size_t n = p.shape.length;
    const RmsnormResult result = rmsnorm_oracle(p.x, p.gamma, p.shape, kEps);
    RatioTracker catalog(name + " vs 1e-3 * gamma(max(L-1,1), 2^-24) |y*|, L=" + std::to_string(n));
    RatioTracker documented(name + " vs documented bound");
    for (std::size_t r = 0; r < p.shape.rows; ++r) {
        const auto row = std::span(p.x).subspan(r * n, n);
        BigFloat squares;
        for (const double v : row) squares += BigFloat(v) * BigFloat(v);
        const BigFloat mean_square = squares / BigFloat(static_cast<double>(n));
        EXPECT_LE(distance(result.mean_square[r], mean_square),
                  (2 * kF64Roundoff + std::pow(gamma_f64(n), 2)) * mean_square.to_double());
        const BigFloat rms = sqrt(mean_square + BigFloat(result.eps));
        for (std::size_t i = 0; i < n; ++i) {
            const BigFloat y = BigFloat(row[i]) / rms * BigFloat(p.gamma[i]);
            const double error = distance(result.value[r * n + i], y);
            const std::string where = "row " + std::to_string(r) + " i " + std::to_string(i);
            catalog.expect_within(error, kOracleShare * rmsnorm_floor(n, y.to_double()), where);
            documented.expect_within(error, 7 * kF64Roundoff * std::fabs(y.to_double()), where);
        }
    }
}

void check_both(const NormProblem& p, const std::string& name) {
    check_layernorm(p, name);
    check_rmsnorm(p, name);
}

TEST(NormOracles, NormalRowsWithAffine) {
    for (const std::size_t n : {1u, 2u, 7u, 128u, 768u, 4096u}) {
        SplitMix64 rng(n);
        check_both(problem({.rows = 3, .length = n}, [&] { return to_f32(rng.normal()); }, n, false),
                   "normal(0,1)");
    }
}

// C-PRC-02 data set 5: mean 1e4, spread 1e-2 in f32 (about ten input
// spacings); the one-pass E[x^2] - E[x]^2 would be off by about 6e3.
TEST(NormOracles, LargeMeanSmallSpread) {
    for (const std::size_t n : {128u, 1024u, 4096u}) {
        SplitMix64 rng(100 + n);
        check_both(problem({.rows = 4, .length = n},
                           [&] { return to_f32(1e4 + 1e-2 * rng.normal()); }, n, true),
                   "normal(1e4,1e-2)");
    }
    SplitMix64 rng(3);
    check_both(problem({.rows = 2, .length = 1000},
                       [&] { return round_to(Format::f16, 1e3 + 2 * rng.normal()); }, 4, false),
               "f16 normal(1e3,2)");
}

// C-PRC-02 data set 6: constant rows, var* = 0, y* = beta.
TEST(NormOracles, ConstantRows) {
    SplitMix64 rng(6);
    for (const std::size_t n : {5u, 257u, 4096u}) {
        const double c = to_f32(rng.uniform(512, 1024));
        const NormProblem p = problem({.rows = 1, .length = n}, [&] { return c; }, n, false);
        const LayernormResult r = layernorm_oracle(p.x, p.gamma, p.beta, p.shape, kEps);
        EXPECT_EQ(r.variance[0], 0.0);
        EXPECT_EQ(r.mean[0], c);
        for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(r.value[i], p.beta[i]);
        check_both(p, "constant");
    }
}

// C-PRC-02 data set 7: large values whose squares overflow f16 but not f32.
TEST(NormOracles, LargeValues) {
    for (const std::size_t n : {7u, 1024u}) {
        SplitMix64 rng(70 + n);
        const double scale = 0x1p-4 * 0x1p64 / std::sqrt(static_cast<double>(n));
        check_both(problem({.rows = 2, .length = n}, [&] { return to_f32(scale * rng.normal()); }, n,
                           false),
                   "normal(0, 2^60/sqrt(L))");
    }
}

TEST(NormOracles, HeavyCancellationInTheMean) {
    SplitMix64 rng(8);
    const std::size_t n = 2001;
    NormProblem p = problem({.rows = 1, .length = n}, [] { return 0.0; }, 9, false);
    for (std::size_t t = 0; t + 1 < n; t += 2) {
        p.x[t] = to_f32(std::ldexp(rng.uniform(1, 2), static_cast<int>(rng.below(40))));
        p.x[t + 1] = -p.x[t];
    }
    p.x[n - 1] = to_f32(1e-3);
    check_both(p, "x,-x pairs");
}

TEST(NormOracles, SpecialValuesAndErrors) {
    const std::vector<double> x = {1.0, std::numeric_limits<double>::infinity(), 2.0};
    const std::vector<double> ones(3, 1.0), zeros(3, 0.0);
    const LayernormResult ln = layernorm_oracle(x, ones, zeros, {.rows = 1, .length = 3}, kEps);
    for (const double y : ln.value) EXPECT_TRUE(std::isnan(y));
    const RmsnormResult rms = rmsnorm_oracle(x, ones, {.rows = 1, .length = 3}, kEps);
    EXPECT_EQ(rms.value[0], 0.0);
    EXPECT_TRUE(std::isnan(rms.value[1]));

    EXPECT_THROW(layernorm_oracle(x, ones, zeros, {.rows = 1, .length = 3}, 0.0),
                 std::invalid_argument);
    EXPECT_THROW(layernorm_oracle(x, std::vector<double>(2), zeros, {.rows = 1, .length = 3}, kEps),
                 std::invalid_argument);
    EXPECT_THROW(rmsnorm_oracle(x, ones, {.rows = 1, .length = 2}, kEps), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::test
