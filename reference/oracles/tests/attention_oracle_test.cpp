// attention oracle against a 256-bit MPFR composite: random problems with
// and without the causal mask, scores past exp's overflow, masked rows.
#include "kcs/reference/attention_oracle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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

constexpr double kInf = std::numeric_limits<double>::infinity();

struct AttentionProblem {
    AttentionShape shape;
    std::vector<double> q, k, v;
};

AttentionProblem random_problem(AttentionShape shape, double qk_scale, std::uint64_t seed) {
    SplitMix64 rng(seed);
    AttentionProblem p{shape, std::vector<double>(shape.queries * shape.head_dim),
                       std::vector<double>(shape.keys * shape.head_dim),
                       std::vector<double>(shape.keys * shape.head_dim)};
    for (double& x : p.q) x = to_f32(qk_scale * rng.normal());
    for (double& x : p.k) x = to_f32(qk_scale * rng.normal());
    for (double& x : p.v) x = to_f32(rng.normal());
    return p;
}

void check_against_mpfr(const AttentionProblem& p, const AttentionOptions& options,
                        const std::string& name) {
    const auto [queries, keys, head_dim] = p.shape;
    const AttentionResult result = attention_oracle(p.q, p.k, p.v, p.shape, options);
    RatioTracker catalog(name + " vs 1e-3 * gamma(T, 2^-24) * W (1 + A (D+1)/(T-1)), T=" + std::to_string(keys) +
                         " D=" + std::to_string(head_dim) + (options.causal ? " causal" : ""));
    RatioTracker documented(name + " vs documented bound");
    for (std::size_t s = 0; s < queries; ++s) {
        const std::size_t visible = options.causal ? std::min(keys, s + 1) : keys;
        std::vector<BigFloat> scores;
        double delta = 0.0;
        double score_magnitude = 0.0;
        for (std::size_t t = 0; t < visible; ++t) {
            BigFloat dot, magnitude;
            for (std::size_t d = 0; d < head_dim; ++d) {
                const BigFloat product = BigFloat(p.q[s * head_dim + d]) * BigFloat(p.k[t * head_dim + d]);
                dot += product;
                magnitude += abs(product);
            }
            scores.push_back(BigFloat(result.scale) * dot);
            score_magnitude = std::max(score_magnitude, result.scale * magnitude.to_double());
        }
        delta = (std::pow(gamma_f64(head_dim), 2) + 3 * kF64Roundoff * kF64Roundoff) * score_magnitude;
        BigFloat m = scores[0];
        for (const BigFloat& score : scores) m = m < score ? score : m;
        std::vector<BigFloat> weights;
        BigFloat denominator;
        for (const BigFloat& score : scores) {
            weights.push_back(exp(score - m));
            denominator += weights.back();
        }
        for (std::size_t d = 0; d < head_dim; ++d) {
            BigFloat out, weighted_abs, abs_sum;
            for (std::size_t t = 0; t < visible; ++t) {
                const BigFloat value(p.v[t * head_dim + d]);
                out += weights[t] * value;
                weighted_abs += weights[t] * abs(value);
                abs_sum += abs(value);
            }
            out /= denominator;
            const double w = (weighted_abs / denominator).to_double();
            const std::size_t index = s * head_dim + d;
            const double error = distance(result.value[index], out);
            const std::string where = "s " + std::to_string(s) + " d " + std::to_string(d);
            catalog.expect_within(error, kOracleShare * attention_floor(keys, head_dim, w, score_magnitude), where);
            documented.expect_within(
                error, (2 * delta + 10 * kF64Roundoff) * w + 0x1p-1072 * abs_sum.to_double(), where);
            EXPECT_LE(std::fabs(result.weighted_abs_value[index] - w),
                      (2 * delta + gamma_f64(keys + 8)) * w + 0x1p-1072 * abs_sum.to_double())
                << where;
        }
    }
}

TEST(AttentionOracle, RandomProblems) {
    for (const std::size_t keys : {1u, 7u, 64u, 300u}) {
        for (const std::size_t head_dim : {1u, 16u, 64u}) {
            const AttentionProblem p = random_problem({.queries = 5, .keys = keys, .head_dim = head_dim},
                                                      1.0, keys * 100 + head_dim);
            check_against_mpfr(p, {}, "normal");
            check_against_mpfr(p, {.causal = true}, "normal");
        }
    }
}

// Scores far beyond f32 exp's overflow threshold (|scores| in the hundreds).
TEST(AttentionOracle, LargeScores) {
    const AttentionProblem p = random_problem({.queries = 4, .keys = 200, .head_dim = 32}, 8.0, 77);
    check_against_mpfr(p, {}, "scores ~ 1e2..1e3");
    check_against_mpfr(p, {.causal = true, .scale = 0.3}, "scores ~ 1e2..1e3, scale 0.3");
    // Scores near 1e8 with gaps of a few units: keys share a large common
    // part, so rounding the scores to f64 would cost 1e-8 relative.
    AttentionProblem offset = random_problem({.queries = 3, .keys = 50, .head_dim = 16}, 1.0, 78);
    SplitMix64 rng(79);
    std::vector<double> common(16);
    for (double& c : common) c = 1e4 * rng.normal();
    for (std::size_t i = 0; i < offset.q.size(); ++i) offset.q[i] = to_f32(1e4 * offset.q[i]);
    for (std::size_t i = 0; i < offset.k.size(); ++i) {
        offset.k[i] = to_f32(common[i % 16] + 1e-4 * offset.k[i]);
    }
    check_against_mpfr(offset, {.scale = 1.0}, "scores ~ 1e8, gaps ~ 1");
}

TEST(AttentionOracle, CausalFirstQueryCopiesTheFirstValue) {
    const AttentionProblem p = random_problem({.queries = 3, .keys = 9, .head_dim = 8}, 1.0, 5);
    const AttentionResult r = attention_oracle(p.q, p.k, p.v, p.shape, {.causal = true});
    for (std::size_t d = 0; d < 8; ++d) EXPECT_EQ(r.value[d], p.v[d]);
    EXPECT_EQ(r.denominator[0], 1.0);
}

TEST(AttentionOracle, DefaultScaleIsCorrectlyRoundedInTheAccumulateFormat) {
    EXPECT_EQ(default_attention_scale(64, Format::f32), 0.125);
    EXPECT_EQ(default_attention_scale(1, Format::f32), 1.0);
    for (const std::size_t d : {3u, 80u, 96u, 1000u}) {
        const BigFloat exact = BigFloat(1.0) / sqrt(BigFloat(static_cast<double>(d)));
        EXPECT_EQ(default_attention_scale(d, Format::f32),
                  round_exact_to_format(exact.get(), Format::f32))
            << "D = " << d;
        EXPECT_EQ(default_attention_scale(d, Format::bf16),
                  round_exact_to_format(exact.get(), Format::bf16))
            << "D = " << d;
    }
    const AttentionProblem p = random_problem({.queries = 1, .keys = 2, .head_dim = 80}, 1.0, 1);
    EXPECT_EQ(attention_oracle(p.q, p.k, p.v, p.shape, {}).scale,
              default_attention_scale(80, Format::f32));
    EXPECT_EQ(attention_oracle(p.q, p.k, p.v, p.shape, {.scale = 0.1}).scale, to_f32(0.1));
}

// Scores of -inf through -inf keys: a fully masked row gives the claim;
// a partly masked row ignores the masked keys (whose values may be NaN).
TEST(AttentionOracle, MaskedRowsFollowTheClaim) {
    const AttentionShape shape{.queries = 2, .keys = 3, .head_dim = 1};
    const std::vector<double> q = {1.0, -1.0};
    const std::vector<double> k = {-kInf, -kInf, -kInf};
    const std::vector<double> v = {1.0, 2.0, 3.0};
    const AttentionResult nan_claim = attention_oracle(q, k, v, shape, {.scale = 1.0});
    const AttentionResult zero_claim =
        attention_oracle(q, k, v, shape, {.scale = 1.0, .masked_row = MaskedRow::zero});
    EXPECT_TRUE(std::isnan(nan_claim.value[0]));
    EXPECT_EQ(zero_claim.value[0], 0.0);
    EXPECT_FALSE(std::signbit(zero_claim.value[0]));
    // Query 1 scores +inf against -inf keys: inf - inf in the softmax, NaN.
    EXPECT_TRUE(std::isnan(zero_claim.value[1]));

    const std::vector<double> k_partly = {-kInf, 2.0, 4.0};
    const std::vector<double> v_nan_masked = {std::numeric_limits<double>::quiet_NaN(), 2.0, 3.0};
    const AttentionResult partly =
        attention_oracle(std::vector<double>{1.0}, k_partly, v_nan_masked,
                         {.queries = 1, .keys = 3, .head_dim = 1}, {.scale = 1.0});
    const double w1 = 1 / (1 + std::exp(2.0));
    EXPECT_NEAR(partly.value[0], 2.0 * w1 + 3.0 * (1 - w1), 1e-15);
}

TEST(AttentionOracle, RejectsBadShapes) {
    const std::vector<double> x(4);
    EXPECT_THROW(attention_oracle(x, x, x, {.queries = 2, .keys = 0, .head_dim = 2}, {}),
                 std::invalid_argument);
    EXPECT_THROW(attention_oracle(x, x, x, {.queries = 2, .keys = 2, .head_dim = 3}, {}),
                 std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::test
