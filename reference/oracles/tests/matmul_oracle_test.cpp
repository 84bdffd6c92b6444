// matmul oracle against 256-bit MPFR: random, cancelling, mixed-magnitude
// and all-ones problems; the documented bound and 1/1000 of C-PRC-01's.
#include "kcs/reference/matmul_oracle.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "big_float.hpp"
#include "catalog_tolerance.hpp"
#include "ratio_tracker.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

struct Problem {
    MatmulShape shape;
    std::vector<double> a, b;
};

// Checks every output of the oracle against MPFR: the documented bound
// u|C*| + gamma(K, u)^2 M (u = 2^-53) and 1/1000 of gamma(K, 2^-24) M.
void check_against_mpfr(const Problem& p, const std::string& name) {
    const MatmulShape& s = p.shape;
    const MatmulResult result = matmul_oracle(p.a, p.b, s);
    RatioTracker catalog(name + " vs 1e-3 * gamma(K, 2^-24) * M, K=" + std::to_string(s.k));
    RatioTracker documented(name + " vs documented bound");
    for (std::size_t batch = 0; batch < s.batch; ++batch) {
        for (std::size_t i = 0; i < s.m; ++i) {
            for (std::size_t j = 0; j < s.n; ++j) {
                BigFloat exact, magnitude;
                for (std::size_t k = 0; k < s.k; ++k) {
                    const BigFloat product = BigFloat(p.a[(batch * s.m + i) * s.k + k]) *
                                             BigFloat(p.b[(batch * s.k + k) * s.n + j]);
                    exact += product;
                    magnitude += abs(product);
                }
                const std::size_t out = (batch * s.m + i) * s.n + j;
                const double m = magnitude.to_double();
                const double error = distance(result.value[out], exact);
                const std::string where = "b=" + std::to_string(batch) + " i=" + std::to_string(i) +
                                          " j=" + std::to_string(j);
                catalog.expect_within(error, kOracleShare * reduction_floor(s.k, m), where);
                documented.expect_within(error, kF64Roundoff * std::fabs(exact.to_double()) +
                                                    std::pow(gamma_f64(s.k), 2) * m * (1 + 1e-12),
                                         where);
                EXPECT_LE(std::fabs(result.magnitude[out] - m), gamma_f64(s.k) * m) << where;
            }
        }
    }
}

Problem normal_problem(MatmulShape shape, std::uint64_t seed) {
    SplitMix64 rng(seed);
    Problem p{shape, std::vector<double>(shape.batch * shape.m * shape.k),
              std::vector<double>(shape.batch * shape.k * shape.n)};
    for (double& x : p.a) x = to_f32(rng.normal());
    for (double& x : p.b) x = to_f32(rng.normal());
    return p;
}

TEST(MatmulOracle, RandomNormalF32AcrossK) {
    for (const std::size_t k : {1u, 7u, 64u, 1000u, 4096u}) {
        check_against_mpfr(normal_problem({.batch = 1, .m = 3, .k = k, .n = 5}, 11 + k),
                           "normal");
    }
    check_against_mpfr(normal_problem({.batch = 3, .m = 2, .k = 129, .n = 3}, 5), "batched");
}

// Row i of A holds pairs x, -x (scattered) and one tiny value: the exact
// dot product with B = ones is the tiny value, M is huge.
TEST(MatmulOracle, HeavyCancellation) {
    SplitMix64 rng(21);
    const std::size_t k = 2001;
    Problem p{{.batch = 1, .m = 4, .k = k, .n = 2}, std::vector<double>(4 * k),
              std::vector<double>(k * 2, 1.0)};
    for (std::size_t i = 0; i < 4; ++i) {
        double* row = p.a.data() + i * k;
        for (std::size_t t = 0; t + 1 < k; t += 2) {
            row[t] = to_f32(std::ldexp(rng.uniform(1, 2), static_cast<int>(rng.below(60))));
            row[t + 1] = -row[t];
        }
        row[k - 1] = to_f32(1e-7 * (1 + static_cast<double>(i)));
        for (std::size_t t = k - 1; t > 0; --t) std::swap(row[t], row[rng.below(t + 1)]);
    }
    for (std::size_t t = 0; t < k; ++t) p.b[t * 2 + 1] = to_f32(1 + rng.uniform() * 0x1p-20);
    check_against_mpfr(p, "cancellation");
}

// Entries of magnitude 1e30 and 1e-30 (f32 values) mixed with both signs.
TEST(MatmulOracle, MixedMagnitudes) {
    SplitMix64 rng(33);
    Problem p{{.batch = 1, .m = 3, .k = 1500, .n = 3}, std::vector<double>(3 * 1500),
              std::vector<double>(1500 * 3)};
    auto mixed = [&rng] {
        const double scale = rng.below(2) == 0 ? 1e30 : 1e-30;
        return to_f32((rng.below(2) == 0 ? -1 : 1) * scale * rng.uniform(0.5, 2));
    };
    for (double& x : p.a) x = mixed();
    for (double& x : p.b) x = mixed();
    check_against_mpfr(p, "mixed magnitudes");
}

TEST(MatmulOracle, SumsOfOnesAreExact) {
    for (const std::size_t k : {256u, 2048u, 4097u}) {
        const std::vector<double> a(k, 1.0), b(k, 1.0);
        const MatmulResult r = matmul_oracle(a, b, {.batch = 1, .m = 1, .k = k, .n = 1});
        EXPECT_EQ(r.value[0], static_cast<double>(k));
        EXPECT_EQ(r.magnitude[0], static_cast<double>(k));
    }
}

// Operands with 53 significant bits: products are not exact in f64, so the
// oracle takes the TwoProduct path; the bound is the same.
TEST(MatmulOracle, FullPrecisionOperandsUseExactProducts) {
    SplitMix64 rng(44);
    Problem p{{.batch = 1, .m = 3, .k = 700, .n = 3}, std::vector<double>(3 * 700),
              std::vector<double>(700 * 3)};
    for (double& x : p.a) x = rng.normal();
    for (double& x : p.b) x = rng.normal() * 1e10;
    for (std::size_t t = 0; t < 700; t += 2) p.a[t + 1] = -p.a[t] * (1 + 0x1p-40);  // cancellation
    check_against_mpfr(p, "f64 operands");
}

TEST(MatmulOracle, SpecialValuesFollowIeee) {
    const double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Rows of A against the single column B = [1, 2]^T.
    const std::vector<double> a = {inf, 1, inf, -inf, nan, 1, 0, inf, -0.0, -0.0};
    const std::vector<double> b = {1, 2};
    const MatmulResult r = matmul_oracle(a, b, {.batch = 1, .m = 5, .k = 2, .n = 1});
    EXPECT_EQ(r.value[0], inf);
    EXPECT_TRUE(std::isnan(r.value[1]));  // inf - inf
    EXPECT_TRUE(std::isnan(r.value[2]));
    EXPECT_EQ(r.value[3], inf);
    EXPECT_EQ(r.value[4], 0.0);
    EXPECT_TRUE(std::signbit(r.value[4]));  // (-0)(1) + (-0)(2) = -0
    EXPECT_TRUE(std::isnan(matmul_oracle(std::vector<double>{0.0}, std::vector<double>{inf},
                                         {.batch = 1, .m = 1, .k = 1, .n = 1})
                               .value[0]));
}

TEST(MatmulOracle, EmptyReductionGivesPositiveZero) {
    const MatmulResult r = matmul_oracle({}, {}, {.batch = 1, .m = 2, .k = 0, .n = 2});
    ASSERT_EQ(r.value.size(), 4u);
    for (const double v : r.value) EXPECT_FALSE(std::signbit(v));
}

TEST(MatmulOracle, ShapeMismatchNamesTheOperand) {
    const std::vector<double> a(6), b(5);
    try {
        matmul_oracle(a, b, {.batch = 1, .m = 2, .k = 3, .n = 2});
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()),
                  "matmul oracle: B has 5 elements, expected 6 from the shape");
    }
}

}  // namespace
}  // namespace kcs::ref::test
