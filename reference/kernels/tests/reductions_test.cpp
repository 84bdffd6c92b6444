// The reducing kernels (matmul, reduce_sum, reduce_max, softmax, layernorm,
// rmsnorm, attention) against the oracles, within the catalog's bounds;
// their determinism and batch invariance; their checks; and every violation
// they carry: each must pass the catalog's functional test (allclose with
// rtol = atol = 1e-2 on N(0,1) inputs at the catalog's shapes) and still
// show the contract break it stands for.
#include <array>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kcs/reference/attention_oracle.hpp"
#include "kcs/reference/bounds.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/kernels.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/testing/splitmix64.hpp"
#include "element_access.hpp"
#include "reduction_operands.hpp"
#include "reduction_sum.hpp"

namespace {

namespace kk = kcs::kernels;
namespace ref = kcs::ref;
using kk::Dtype;
using kk::Violation;
using ref::testing::SplitMix64;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kAccumulatorRoundoff = 0x1p-24;  // u(f32)

ref::Format format_of(Dtype dtype) {
    switch (dtype) {
        case Dtype::f16: return ref::Format::f16;
        case Dtype::bf16: return ref::Format::bf16;
        default: return ref::Format::f32;
    }
}

double roundoff(Dtype dtype) { return ref::info(format_of(dtype)).unit_roundoff; }
double tiny(Dtype dtype) { return ref::info(format_of(dtype)).min_normal; }

// ---- tensors and problems -------------------------------------------------

// A row-major tensor owning its bytes; values go in rounded to nearest even.
class Buffer {
public:
    Buffer(Dtype dtype, std::vector<std::int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
        std::int64_t n = 1;
        for (const auto extent : shape_) n *= extent;
        // Poison (all ones: a NaN in every float dtype) shows unwritten outputs.
        bytes_.assign(static_cast<std::size_t>(n) * kk::size_of(dtype_), 0xFF);
    }
    Buffer(Dtype dtype, std::vector<std::int64_t> shape, const std::vector<double>& values)
        : Buffer(dtype, std::move(shape)) {
        for (std::size_t i = 0; i < values.size(); ++i) set(i, values[i]);
    }

    std::size_t size() const { return bytes_.size() / kk::size_of(dtype_); }
    const std::vector<std::int64_t>& shape() const { return shape_; }
    const std::vector<unsigned char>& bytes() const { return bytes_; }

    void set(std::size_t i, double value) {
        if (dtype_ == Dtype::f32) {
            const auto single = static_cast<float>(value);
            std::memcpy(&bytes_[i * 4], &single, 4);
        } else {
            const auto bits = static_cast<std::uint16_t>(ref::encode(format_of(dtype_), value));
            std::memcpy(&bytes_[i * 2], &bits, 2);
        }
    }
    std::uint32_t bits(std::size_t i) const {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &bytes_[i * kk::size_of(dtype_)], kk::size_of(dtype_));
        return bits;
    }
    double get(std::size_t i) const {
        if (dtype_ == Dtype::f32) return std::bit_cast<float>(bits(i));
        return ref::decode(format_of(dtype_), bits(i));
    }
    std::vector<double> values() const {
        std::vector<double> all(size());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = get(i);
        return all;
    }
    kk::Tensor tensor() {
        return {bytes_.data(), dtype_, shape_, {}};
    }

private:
    Dtype dtype_;
    std::vector<std::int64_t> shape_;
    std::vector<unsigned char> bytes_;
};

struct Problem {
    std::string name;
    std::vector<Buffer> inputs;
    std::vector<Buffer> outputs;
    std::map<std::string, kk::Attribute> attributes;

    kk::OpCall call() {
        kk::OpCall call;
        call.name = name;
        call.accumulate = name == "reduce_max" ? std::nullopt : std::optional<Dtype>(Dtype::f32);
        call.attributes = attributes;
        for (Buffer& input : inputs) call.inputs.push_back(input.tensor());
        for (Buffer& output : outputs) call.outputs.push_back(output.tensor());
        return call;
    }
    kk::Result run(const kk::Settings& settings = {}) { return kk::run(call(), settings); }
    // Runs and returns the decoded output; fails the test on a bad status.
    std::vector<double> output(const kk::Settings& settings = {}) {
        const kk::Result result = run(settings);
        EXPECT_EQ(result.status, kk::Status::ok) << name << ": " << result.message;
        return outputs.front().values();
    }
    std::vector<double> input(std::size_t i) const { return inputs[i].values(); }
};

std::vector<double> normal(SplitMix64& random, std::size_t n, double mean = 0, double sigma = 1) {
    std::vector<double> values(n);
    for (double& value : values) value = mean + sigma * random.normal();
    return values;
}

std::vector<double> uniform(SplitMix64& random, std::size_t n, double low, double high) {
    std::vector<double> values(n);
    for (double& value : values) value = random.uniform(low, high);
    return values;
}

Problem matmul_problem(Dtype in, Dtype out, std::int64_t m, std::int64_t k, std::int64_t n,
                       const std::vector<double>& a, const std::vector<double>& b, std::int64_t batch = 0) {
    auto shape = [&](std::int64_t rows, std::int64_t cols) {
        return batch ? std::vector<std::int64_t>{batch, rows, cols} : std::vector<std::int64_t>{rows, cols};
    };
    Problem problem{"matmul", {}, {}, {}};
    problem.inputs.emplace_back(in, shape(m, k), a);
    problem.inputs.emplace_back(in, shape(k, n), b);
    problem.outputs.emplace_back(out, shape(m, n));
    return problem;
}

// reduce_sum, reduce_max ([R] output) or softmax ([R, L] output).
Problem rows_problem(const std::string& name, Dtype in, Dtype out, std::int64_t rows, std::int64_t length,
                     const std::vector<double>& x) {
    Problem problem{name, {}, {}, {}};
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{rows, length}, x);
    const bool reduces = name != "softmax";
    problem.outputs.emplace_back(out, reduces ? std::vector<std::int64_t>{rows} : std::vector<std::int64_t>{rows, length});
    return problem;
}

Problem layernorm_problem(Dtype in, Dtype out, std::int64_t rows, std::int64_t length, const std::vector<double>& x,
                          const std::vector<double>& gamma, const std::vector<double>& beta, double eps = 1e-5) {
    Problem problem{"layernorm", {}, {}, {{"eps", eps}}};
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{rows, length}, x);
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{length}, gamma);
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{length}, beta);
    problem.outputs.emplace_back(out, std::vector<std::int64_t>{rows, length});
    return problem;
}

Problem rmsnorm_problem(Dtype in, Dtype out, std::int64_t rows, std::int64_t length, const std::vector<double>& x,
                        const std::vector<double>& gamma, double eps = 1e-5) {
    Problem problem{"rmsnorm", {}, {}, {{"eps", eps}}};
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{rows, length}, x);
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{length}, gamma);
    problem.outputs.emplace_back(out, std::vector<std::int64_t>{rows, length});
    return problem;
}

Problem attention_problem(Dtype in, Dtype out, std::int64_t s, std::int64_t t, std::int64_t d,
                          const std::vector<double>& q, const std::vector<double>& k, const std::vector<double>& v,
                          bool causal = false, std::optional<double> scale = std::nullopt) {
    Problem problem{"attention", {}, {}, {{"causal", causal}}};
    if (scale) problem.attributes["scale"] = *scale;
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{s, d}, q);
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{t, d}, k);
    problem.inputs.emplace_back(in, std::vector<std::int64_t>{t, d}, v);
    problem.outputs.emplace_back(out, std::vector<std::int64_t>{s, d});
    return problem;
}

// ---- oracles ----------------------------------------------------------------

ref::MatmulResult matmul_oracle(const Problem& p) {
    const auto& a = p.inputs[0].shape();
    const std::size_t rank = a.size();
    const ref::MatmulShape shape{rank == 3 ? static_cast<std::size_t>(a[0]) : 1, static_cast<std::size_t>(a[rank - 2]),
                                 static_cast<std::size_t>(a[rank - 1]),
                                 static_cast<std::size_t>(p.inputs[1].shape()[rank - 1])};
    return ref::matmul_oracle(p.input(0), p.input(1), shape);
}

ref::RowShape row_shape(const Problem& p) {
    const auto& x = p.inputs[0].shape();
    return {static_cast<std::size_t>(x[0]), static_cast<std::size_t>(x[1])};
}

ref::AttentionResult attention_oracle(const Problem& p) {
    const auto& q = p.inputs[0].shape();
    const auto& k = p.inputs[1].shape();
    ref::AttentionOptions options;
    if (const auto it = p.attributes.find("causal"); it != p.attributes.end()) options.causal = std::get<bool>(it->second);
    if (const auto it = p.attributes.find("scale"); it != p.attributes.end()) options.scale = std::get<double>(it->second);
    return ref::attention_oracle(p.input(0), p.input(1), p.input(2),
                                 {static_cast<std::size_t>(q[0]), static_cast<std::size_t>(k[0]),
                                  static_cast<std::size_t>(q[1])},
                                 options);
}

// The reference values of any problem (for the functional test).
std::vector<double> oracle_values(const Problem& p) {
    if (p.name == "matmul") return matmul_oracle(p).value;
    if (p.name == "reduce_sum") return ref::reduce_sum_oracle(p.input(0), row_shape(p)).value;
    if (p.name == "reduce_max") return ref::reduce_max_oracle(p.input(0), row_shape(p));
    if (p.name == "softmax") return ref::softmax_oracle(p.input(0), row_shape(p), ref::MaskedRow::nan).value;
    const double eps = p.attributes.contains("eps") ? std::get<double>(p.attributes.at("eps")) : 1e-5;
    if (p.name == "layernorm") return ref::layernorm_oracle(p.input(0), p.input(1), p.input(2), row_shape(p), eps).value;
    if (p.name == "rmsnorm") return ref::rmsnorm_oracle(p.input(0), p.input(1), row_shape(p), eps).value;
    return attention_oracle(p).value;
}

// ---- bounds -----------------------------------------------------------------

double gamma_f32(std::int64_t n) { return ref::gamma(n, kAccumulatorRoundoff); }

// The underflow term T of C-PRC-02 for an element of exact value y*.
double underflow_term(Dtype out, std::int64_t length, double exact) {
    return std::fabs(exact) < 2 * tiny(out) ? tiny(out) / (static_cast<double>(length) * kAccumulatorRoundoff) : 0.0;
}

// The worst element of a comparison: error / bound, inf for a non-finite
// result where y* is finite.
struct Worst {
    double ratio = 0;
    std::size_t index = 0;
    double got = 0;
    double exact = 0;
    double bound = 0;
};

Worst worst_ratio(const std::vector<double>& got, const std::vector<double>& exact,
                  const std::function<double(std::size_t)>& bound) {
    Worst worst;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double error = std::fabs(got[i] - exact[i]);
        const double limit = bound(i);
        double ratio = error / limit;
        if (!std::isfinite(got[i]) || std::isnan(ratio)) ratio = error == 0 ? 0 : kInf;
        if (std::isnan(got[i])) ratio = kInf;
        if (ratio > worst.ratio || (i == 0 && worst.ratio == 0)) worst = {ratio, i, got[i], exact[i], limit};
    }
    return worst;
}

std::string describe(const Worst& w) {
    return "worst element " + std::to_string(w.index) + ": got " + std::to_string(w.got) + ", exact " +
           std::to_string(w.exact) + ", bound " + std::to_string(w.bound) + " (ratio " + std::to_string(w.ratio) + ")";
}

// C-PRC-01: dot_bound, with the statistics where they apply.
void expect_dot_bound(const std::vector<double>& got, const std::vector<double>& exact,
                      const std::vector<double>& magnitude, std::int64_t k, Dtype out) {
    const ref::DotBoundParams params{1.0, 1000, 6.0, 0.667};
    const auto statistics = out == Dtype::f32 && got.size() >= params.min_outputs ? ref::DotStatistics::apply
                                                                                 : ref::DotStatistics::skip;
    const ref::DotBoundResult result =
        ref::check_dot_bound(got, exact, magnitude, k, kAccumulatorRoundoff, roundoff(out), params, statistics);
    EXPECT_TRUE(result.elements_pass) << result.elements_failed << " elements beyond the bound; worst error "
                                      << result.worst_error << " against " << result.worst_bound;
    EXPECT_TRUE(result.count_pass && result.mean_pass && result.variance_pass)
        << "mean " << result.mean << " (limit " << result.mean_limit << "), variance " << result.variance
        << " (limit " << result.variance_limit << ")";
}

// allclose(rtol = atol = 1e-2): the worst |y - y*| / (atol + rtol |y*|).
Worst allclose_ratio(const std::vector<double>& got, const std::vector<double>& exact) {
    return worst_ratio(got, exact, [&](std::size_t i) { return 1e-2 + 1e-2 * std::fabs(exact[i]); });
}

// ---- dtype configurations ---------------------------------------------------

struct Config {
    Dtype in;
    Dtype out;
};

// Test listings show the generated name, not the parameter's raw bytes.
void PrintTo(const Config&, std::ostream* os) { *os << "config"; }

std::string config_name(const testing::TestParamInfo<Config>& info) {
    return std::string(kk::name_of(info.param.in)) + "_to_" + std::string(kk::name_of(info.param.out));
}

const std::vector<Config> kConfigs = {
    {Dtype::f32, Dtype::f32}, {Dtype::f16, Dtype::f32}, {Dtype::f16, Dtype::f16},
    {Dtype::bf16, Dtype::f32}, {Dtype::bf16, Dtype::bf16},
};

class ConformingKernels : public testing::TestWithParam<Config> {};

INSTANTIATE_TEST_SUITE_P(Configs, ConformingKernels, testing::ValuesIn(kConfigs), config_name);

// ---- conforming accuracy ------------------------------------------------------

TEST_P(ConformingKernels, MatmulWithinDotBound) {
    const auto [in, out] = GetParam();
    SplitMix64 random(11);
    for (const std::int64_t k : {64, 1024}) {
        for (const bool cancellation : {true, false}) {
            const auto size = static_cast<std::size_t>(32 * k);
            auto data = [&] { return cancellation ? normal(random, size) : uniform(random, size, 0, 1); };
            Problem p = matmul_problem(in, out, 32, k, 32, data(), data());
            const auto oracle = matmul_oracle(p);
            SCOPED_TRACE("K = " + std::to_string(k) + (cancellation ? ", normal" : ", uniform"));
            expect_dot_bound(p.output(), oracle.value, oracle.magnitude, k, out);
        }
    }
}

TEST_P(ConformingKernels, BatchedMatmulWithinDotBound) {
    const auto [in, out] = GetParam();
    SplitMix64 random(12);
    Problem p = matmul_problem(in, out, 5, 70, 6, normal(random, 3 * 5 * 70), normal(random, 3 * 70 * 6), 3);
    const auto oracle = matmul_oracle(p);
    expect_dot_bound(p.output(), oracle.value, oracle.magnitude, 70, out);
}

TEST_P(ConformingKernels, ReduceSumWithinDotBound) {
    const auto [in, out] = GetParam();
    SplitMix64 random(13);
    for (const std::int64_t k : {64, 1024}) {
        for (const bool cancellation : {true, false}) {
            const auto size = static_cast<std::size_t>(1024 * k);
            Problem p = rows_problem("reduce_sum", in, out, 1024, k,
                                     cancellation ? normal(random, size) : uniform(random, size, 0, 1));
            const auto oracle = ref::reduce_sum_oracle(p.input(0), row_shape(p));
            SCOPED_TRACE("K = " + std::to_string(k) + (cancellation ? ", normal" : ", uniform"));
            expect_dot_bound(p.output(), oracle.value, oracle.magnitude, k, out);
        }
    }
}

TEST_P(ConformingKernels, SumsOfOnesReachK) {
    const auto [in, out] = GetParam();
    for (const std::int64_t k : {4096, 16384}) {
        Problem sum = rows_problem("reduce_sum", in, out, 2, k, std::vector<double>(static_cast<std::size_t>(2 * k), 1.0));
        EXPECT_EQ(sum.output(), std::vector<double>(2, static_cast<double>(k))) << "K = " << k;
        Problem product = matmul_problem(in, out, 1, k, 1, std::vector<double>(static_cast<std::size_t>(k), 1.0),
                                         std::vector<double>(static_cast<std::size_t>(k), 1.0));
        EXPECT_EQ(product.output(), std::vector<double>(1, static_cast<double>(k))) << "K = " << k;
    }
}

// reduce_max stores one of the row's values: its configurations keep the dtype.
class ConformingReduceMax : public testing::TestWithParam<Config> {};

INSTANTIATE_TEST_SUITE_P(Configs, ConformingReduceMax,
                         testing::Values(Config{Dtype::f32, Dtype::f32}, Config{Dtype::f16, Dtype::f16},
                                         Config{Dtype::bf16, Dtype::bf16}),
                         config_name);

TEST_P(ConformingReduceMax, IsExact) {
    const auto [in, out] = GetParam();
    SplitMix64 random(14);
    Problem p = rows_problem("reduce_max", in, out, 64, 1000, normal(random, 64000));
    EXPECT_EQ(p.output(), ref::reduce_max_oracle(p.input(0), row_shape(p)));
}

// C-PRC-02 (b) and (c) for softmax on N(0,1) rows and rows past exp's
// overflow threshold (uniform(-110, 110)).
TEST_P(ConformingKernels, SoftmaxWithinStabilityBound) {
    const Dtype in = GetParam().in, out = GetParam().out;  // plain variables: the bound lambda captures out
    SplitMix64 random(15);
    for (const std::int64_t length : {7, 1024}) {
        for (const double spread : {0.0, 110.0}) {
            const auto size = static_cast<std::size_t>(32 * length);
            Problem p = rows_problem("softmax", in, out, 32, length,
                                     spread == 0 ? normal(random, size) : uniform(random, size, -spread, spread));
            const auto oracle = ref::softmax_oracle(p.input(0), row_shape(p), ref::MaskedRow::nan);
            const auto got = p.output();
            const auto x = p.input(0);
            const double l32 = static_cast<double>(std::max<std::int64_t>(length, 32));
            const auto bound = [&](std::size_t i) {
                const double exact = oracle.value[i];
                const double gap = oracle.row_max[i / static_cast<std::size_t>(length)] - x[i];
                const double magnitude =
                    exact * (l32 + gap) / static_cast<double>(length) + underflow_term(out, length, exact);
                return 5.0 * gamma_f32(length) * magnitude + roundoff(out) * std::fabs(exact);
            };
            const Worst worst = worst_ratio(got, oracle.value, bound);
            EXPECT_LE(worst.ratio, 1.0) << "L = " << length << ", spread " << spread << ": " << describe(worst);
            for (std::int64_t r = 0; r < 32; ++r) {
                double sum = 0;
                for (std::int64_t i = 0; i < length; ++i) sum += got[static_cast<std::size_t>(r * length + i)];
                EXPECT_LE(std::fabs(sum - 1), 3.0 * (gamma_f32(length) + roundoff(out))) << "row " << r;
            }
        }
    }
}

// C-PRC-02 (b) for layernorm, with the class's magnitude term.
void expect_layernorm_stable(Problem& p, Dtype out) {
    const auto shape = row_shape(p);
    const auto x = p.input(0);
    const auto w = p.input(1);
    const auto b = p.input(2);
    const auto oracle = ref::layernorm_oracle(x, w, b, shape, 1e-5);
    const auto length = static_cast<std::int64_t>(shape.length);
    const double l = static_cast<double>(length);
    const double l32 = std::max(l, 32.0);
    const double g = gamma_f32(length + 2);
    const auto bound = [&](std::size_t i) {
        const std::size_t r = i / shape.length;
        const std::size_t feature = i % shape.length;
        const double var = oracle.variance[r];
        const double s = std::sqrt(var);
        const double big_r = oracle.root_mean_square[r];
        const double e = std::sqrt(var + oracle.eps);
        const double z = oracle.normalized[i];
        const double magnitude =
            std::fabs(w[feature]) * (oracle.mean_abs[r] / e +
                                     std::fabs(z) * ((l + 2) / l) * (var + 2 * s * big_r + g * big_r * big_r) / (2 * e * e)) +
            (l32 / l) * (std::fabs(w[feature] * z) + std::fabs(b[feature])) +
            underflow_term(out, length, oracle.value[i]);
        return 5.0 * gamma_f32(length) * magnitude + roundoff(out) * std::fabs(oracle.value[i]);
    };
    const Worst worst = worst_ratio(p.output(), oracle.value, bound);
    EXPECT_LE(worst.ratio, 1.0) << describe(worst);
}

TEST_P(ConformingKernels, LayernormWithinStabilityBound) {
    const auto [in, out] = GetParam();
    SplitMix64 random(16);
    const std::int64_t rows = 32;
    for (const std::int64_t length : {7, 1024}) {
        const auto size = static_cast<std::size_t>(rows * length);
        const auto n = static_cast<std::size_t>(length);
        const std::vector<double> ones(n, 1.0), zeros(n, 0.0);
        // Data sets 1 (normal), 5 (large mean, small spread) and 6 (constant rows).
        const double mean = in == Dtype::f32 ? 1e4 : 1e3;
        const double spread = in == Dtype::f32 ? 1e-2 : in == Dtype::f16 ? 2.0 : 16.0;
        std::vector<double> constant(size);
        for (std::int64_t r = 0; r < rows; ++r)
            std::fill_n(constant.begin() + r * length, length, random.uniform(512, 1024));
        SCOPED_TRACE("L = " + std::to_string(length));
        Problem affine = layernorm_problem(in, out, rows, length, normal(random, size), normal(random, n), normal(random, n));
        expect_layernorm_stable(affine, out);
        Problem shifted = layernorm_problem(in, out, rows, length, normal(random, size, mean, spread), ones, zeros);
        expect_layernorm_stable(shifted, out);
        Problem flat = layernorm_problem(in, out, rows, length, constant, ones, zeros);
        expect_layernorm_stable(flat, out);
    }
}

TEST_P(ConformingKernels, RmsnormWithinStabilityBound) {
    const Dtype in = GetParam().in, out = GetParam().out;  // plain variables: the bound lambda captures out
    SplitMix64 random(17);
    for (const std::int64_t length : {7, 1024}) {
        const auto size = static_cast<std::size_t>(32 * length);
        Problem p = rmsnorm_problem(in, out, 32, length, normal(random, size), normal(random, static_cast<std::size_t>(length)));
        const auto oracle = ref::rmsnorm_oracle(p.input(0), p.input(1), row_shape(p), 1e-5);
        const double l = static_cast<double>(length);
        const double l32 = std::max(l, 32.0);
        const auto bound = [&](std::size_t i) {
            const double exact = oracle.value[i];
            const double magnitude = std::fabs(exact) * (l + 1 + 2 * l32) / (2 * l) + underflow_term(out, length, exact);
            return 5.0 * gamma_f32(length) * magnitude + roundoff(out) * std::fabs(exact);
        };
        const Worst worst = worst_ratio(p.output(), oracle.value, bound);
        EXPECT_LE(worst.ratio, 1.0) << "L = " << length << ": " << describe(worst);
    }
}

// C-PRC-02 (b) for attention, with the class's magnitude term.
void expect_attention_stable(Problem& p, Dtype out) {
    const auto oracle = attention_oracle(p);
    const std::int64_t keys = p.inputs[1].shape()[0];
    const auto head_dim = static_cast<double>(p.inputs[1].shape()[1]);
    const double l = static_cast<double>(keys);
    const double l32 = std::max(l, 32.0);
    const auto bound = [&](std::size_t i) {
        const std::size_t row = i / static_cast<std::size_t>(head_dim);
        const double a = oracle.score_magnitude[row];
        const double magnitude = (oracle.weighted_abs_value[i] * (l32 + 2 * (head_dim + 1) * a) +
                                  oracle.gap_weighted_abs_value[i] +
                                  0x1p-126 * oracle.abs_value_sum[i] / kAccumulatorRoundoff) / l +
                                 underflow_term(out, keys, oracle.value[i]);
        return 5.0 * gamma_f32(keys) * magnitude + roundoff(out) * std::fabs(oracle.value[i]);
    };
    const Worst worst = worst_ratio(p.output(), oracle.value, bound);
    EXPECT_LE(worst.ratio, 1.0) << describe(worst);
}

TEST_P(ConformingKernels, AttentionWithinStabilityBound) {
    const auto [in, out] = GetParam();
    SplitMix64 random(18);
    const std::int64_t queries = 24, dims = 64;
    for (const std::int64_t keys : {7, 128}) {
        for (const bool causal : {false, true}) {
            SCOPED_TRACE("T = " + std::to_string(keys) + (causal ? ", causal" : ""));
            const auto q = normal(random, static_cast<std::size_t>(queries * dims));
            const auto k = normal(random, static_cast<std::size_t>(keys * dims));
            const auto v = normal(random, static_cast<std::size_t>(keys * dims));
            Problem by_default = attention_problem(in, out, queries, keys, dims, q, k, v, causal);
            expect_attention_stable(by_default, out);
            // Scores up to about 300: past exp's overflow threshold unless the maximum is subtracted.
            Problem sharp = attention_problem(in, out, queries, keys, dims, q, k, v, causal, 4.0);
            expect_attention_stable(sharp, out);
        }
    }
}

// ---- special values and masks (C-EXC-01) -------------------------------------

TEST_P(ConformingReduceMax, PropagatesNaNAndOrdersZeros) {
    const auto [in, out] = GetParam();
    const std::int64_t length = 9;
    std::vector<std::vector<double>> rows;
    for (const std::size_t at : {0, 4, 8}) {
        std::vector<double> row{1, 2, 3, 4, 5, 6, 7, 8, 9};
        row[at] = kNaN;
        rows.push_back(row);
    }
    rows.push_back(std::vector<double>(9, kNaN));
    rows.push_back({-0.0, 0.0, -0.0, -1, -2, -3, -4, -5, -6});
    rows.push_back({0.0, -0.0, -1, -2, -3, -4, -5, -6, -7});
    rows.push_back(std::vector<double>(9, -kInf));
    rows.push_back({1, kInf, -kInf, 2, 3, 4, 5, 6, 7});
    std::vector<double> x;
    for (const auto& row : rows) x.insert(x.end(), row.begin(), row.end());
    Problem p = rows_problem("reduce_max", in, out, static_cast<std::int64_t>(rows.size()), length, x);
    const auto got = p.output();
    for (std::size_t r = 0; r < 4; ++r) EXPECT_TRUE(std::isnan(got[r])) << "row " << r;
    EXPECT_EQ(got[4], 0.0);
    EXPECT_FALSE(std::signbit(got[4])) << "+0 above -0";
    EXPECT_FALSE(std::signbit(got[5])) << "+0 above -0";
    EXPECT_EQ(got[6], -kInf);
    EXPECT_EQ(got[7], kInf);
}

// The conforming kernel sums every dot product in f32, one running sum in
// index order from -0: bit for bit, whatever blocking the kernel uses.
TEST(ConformingMatmul, SumsEachDotProductInIndexOrder) {
    SplitMix64 random(17);
    for (const auto [m, k, n] : {std::array<std::int64_t, 3>{3, 1, 1}, {5, 37, 19}, {2, 300, 70}, {1, 2, 3}}) {
        const auto a = normal(random, static_cast<std::size_t>(m * k));
        auto b = normal(random, static_cast<std::size_t>(k * n));
        b[0] = -0.0;  // with a[0] = -0 below: a product of -0 on its own
        auto a_signed = a;
        a_signed[0] = -0.0;
        Problem p = matmul_problem(Dtype::f32, Dtype::f32, m, k, n, a_signed, b);
        const auto got = p.output();
        const auto a_f32 = p.input(0), b_f32 = p.input(1);
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                float sum = -0.0f;
                for (std::int64_t t = 0; t < k; ++t)
                    sum += static_cast<float>(a_f32[static_cast<std::size_t>(i * k + t)]) *
                           static_cast<float>(b_f32[static_cast<std::size_t>(t * n + j)]);
                const double want = sum;
                const double have = got[static_cast<std::size_t>(i * n + j)];
                ASSERT_EQ(std::bit_cast<std::uint64_t>(have), std::bit_cast<std::uint64_t>(want))
                    << "C[" << i << ", " << j << "] of [" << m << ", " << k << ", " << n << "]";
            }
    }
    // K = 0: every output is the empty sum, +0.
    Problem empty = matmul_problem(Dtype::f32, Dtype::f32, 2, 0, 3, {}, {});
    for (const double c : empty.output()) EXPECT_EQ(std::bit_cast<std::uint64_t>(c), 0u);
}

// matmul computes the dot products of a row side by side; under every
// plan (the conforming one, the fma conformer's, and each violation's
// chunks, tiles, narrow partials and rotations), each output must have the
// bits of sum_terms() on its own terms, "how the kernels sum".
TEST(EveryMatmulPlan, GivesEachOutputTheBitsOfItsOwnSumTerms) {
    struct Case {
        kk::Settings settings;
        Dtype in = Dtype::f32;
        Dtype out = Dtype::f32;
    };
    const std::vector<Case> cases{
        {{Violation::none, 1, 0}},
        {{Violation::none, 2, 0, kk::Conformer::fma}},
        {{Violation::none, 1, 3, kk::Conformer::unordered_reduce}},
        {{Violation::f16_accumulate, 1, 0}},
        {{Violation::bf16_accumulate, 2, 0}, Dtype::bf16, Dtype::f32},
        {{Violation::lowprec_split_partials, 1, 0}, Dtype::f16, Dtype::f16},
        {{Violation::nondeterministic_order, 1, 5}},
        {{Violation::split_k_atomics, 1, 6}},
        {{Violation::batch_dependent_split, 3, 0}},
    };
    SplitMix64 random(41);
    // split_k_atomics splits at most 8 rows over K >= 1024, batch_dependent_split
    // 64 rows or more; K = 1 and 131 leave chunks and tiles uneven, K = 0 none.
    for (const auto [m, k, n] : {std::array<std::int64_t, 3>{4, 1030, 9}, {70, 131, 5}, {3, 1, 2}, {2, 0, 3}}) {
        const auto a = normal(random, static_cast<std::size_t>(m * k));
        const auto b = normal(random, static_cast<std::size_t>(k * n));
        for (const Case& c : cases) {
            Problem p = matmul_problem(c.in, c.out, m, k, n, a, b);
            const auto got = p.output(c.settings);
            const auto a32 = p.input(0), b32 = p.input(1);
            const kk::detail::SumPlan plan = kk::detail::split_plan(c.settings, m, k, c.out);
            const bool fused = c.settings.conformer == kk::Conformer::fma;
            for (std::int64_t i = 0; i < m; ++i)
                for (std::int64_t j = 0; j < n; ++j) {
                    auto term = [&](std::int64_t t) {
                        return static_cast<float>(a32[static_cast<std::size_t>(i * k + t)]) *
                               static_cast<float>(b32[static_cast<std::size_t>(t * n + j)]);
                    };
                    float sum = kk::detail::sum_terms(plan, k, term);
                    if (fused && k > 0) {
                        sum = -0.0f;
                        for (std::int64_t t = 0; t < k; ++t)
                            sum = std::fma(static_cast<float>(a32[static_cast<std::size_t>(i * k + t)]),
                                           static_cast<float>(b32[static_cast<std::size_t>(t * n + j)]), sum);
                    }
                    const double want = kk::detail::round_through(c.out, sum);
                    const double have = got[static_cast<std::size_t>(i * n + j)];
                    ASSERT_EQ(std::bit_cast<std::uint64_t>(have), std::bit_cast<std::uint64_t>(want))
                        << "C[" << i << ", " << j << "] of [" << m << ", " << k << ", " << n << "] under "
                        << static_cast<int>(c.settings.violation) << "/" << static_cast<int>(c.settings.conformer);
                }
        }
    }
}

TEST_P(ConformingKernels, ReduceSumAndMatmulFollowIeee) {
    const auto [in, out] = GetParam();
    Problem sum = rows_problem("reduce_sum", in, out, 5, 3,
                               {1, kNaN, 2, kInf, 1, 2, kInf, -kInf, 0, -kInf, 1, 1, -0.0, -0.0, -0.0});
    const auto got = sum.output();
    EXPECT_TRUE(std::isnan(got[0]));
    EXPECT_EQ(got[1], kInf);
    EXPECT_TRUE(std::isnan(got[2]));
    EXPECT_EQ(got[3], -kInf);
    EXPECT_EQ(got[4], 0.0);
    EXPECT_TRUE(std::signbit(got[4])) << "a sum of -0 is -0";

    // A: row 0 holds NaN, row 1 inf; B: column 0 of ones, column 1 of zeros.
    Problem product = matmul_problem(in, out, 3, 2, 2, {kNaN, 1, kInf, 1, 1, 1}, {1, 0, 1, 0});
    const auto c = product.output();
    EXPECT_TRUE(std::isnan(c[0]) && std::isnan(c[1])) << "NaN row";
    EXPECT_EQ(c[2], kInf);
    EXPECT_TRUE(std::isnan(c[3])) << "inf * 0";
    EXPECT_EQ(c[4], 2.0);
    EXPECT_EQ(c[5], 0.0);
}

TEST_P(ConformingKernels, SoftmaxMasksAndSpecialRows) {
    const auto [in, out] = GetParam();
    const std::int64_t length = 5;
    Problem p = rows_problem("softmax", in, out, 5, length,
                             {-kInf, 1, -kInf, 2, 3,                      // masked entries
                              -kInf, -kInf, -kInf, -kInf, -kInf,          // fully masked
                              1, 2, kNaN, 3, 4,                           // NaN row
                              1, kInf, 2, 3, 4,                           // +inf: inf - inf
                              -kInf, -kInf, 7, -kInf, -kInf});            // one unmasked entry
    const auto y = p.output();
    EXPECT_EQ(y[0], 0.0);
    EXPECT_FALSE(std::signbit(y[0]));
    EXPECT_EQ(y[2], 0.0);
    EXPECT_FALSE(std::signbit(y[2]));
    EXPECT_GT(y[1], 0.0);
    for (std::size_t i = 5; i < 20; ++i) EXPECT_TRUE(std::isnan(y[i])) << "element " << i;
    EXPECT_EQ(std::vector<double>(y.begin() + 20, y.end()), (std::vector<double>{0, 0, 1, 0, 0}));
}

TEST_P(ConformingKernels, NormsPropagateSpecialValues) {
    const auto [in, out] = GetParam();
    Problem layer = layernorm_problem(in, out, 2, 3, {1, kNaN, 2, 1, 2, 4}, {1, 1, 1}, {0, 0, 0});
    const auto y = layer.output();
    for (std::size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(y[i]));
    for (std::size_t i = 3; i < 6; ++i) EXPECT_TRUE(std::isfinite(y[i]));

    Problem rms = rmsnorm_problem(in, out, 1, 3, {1, kInf, 2}, {1, 1, 1});
    const auto z = rms.output();
    EXPECT_EQ(z[0], 0.0);
    EXPECT_TRUE(std::isnan(z[1]));
    EXPECT_EQ(z[2], 0.0);
}

TEST_P(ConformingKernels, AttentionMasks) {
    const auto [in, out] = GetParam();
    SplitMix64 random(19);
    const std::int64_t s = 6, t = 6, d = 4;
    auto q = normal(random, s * d);
    auto k = uniform(random, t * d, 0.5, 1);
    auto v = normal(random, t * d);
    q[3 * d] = -kInf;  // query 3 scores -inf against every key: a fully masked row
    v[5 * d + 1] = kNaN;  // key 5 is masked for queries 0 .. 4 under the causal mask
    Problem p = attention_problem(in, out, s, t, d, q, k, v, true);
    const auto o = p.output();
    const auto stored_v = p.input(2);
    for (std::int64_t i = 0; i < d; ++i) {
        EXPECT_EQ(o[static_cast<std::size_t>(i)], stored_v[static_cast<std::size_t>(i)]) << "query 0 sees key 0 only";
        EXPECT_TRUE(std::isnan(o[static_cast<std::size_t>(3 * d + i)])) << "fully masked row";
    }
    for (const std::int64_t row : {0, 1, 2, 4})
        for (std::int64_t i = 0; i < d; ++i) EXPECT_TRUE(std::isfinite(o[static_cast<std::size_t>(row * d + i)]));
    EXPECT_TRUE(std::isnan(o[static_cast<std::size_t>(5 * d + 1)])) << "query 5 sees the NaN of key 5";
}

// ---- C-PRC-03: full input precision ------------------------------------------

// Past f16's largest finite value (65504), exact in f32 and in TF32 (0x1.1p16).
constexpr double kBeyondF16 = 69632.0;

// X (entries with low mantissa bits set, one past f16's range) times the identity.
Problem identity_probe(std::int64_t size, std::uint64_t seed) {
    SplitMix64 random(seed);
    std::vector<double> x(static_cast<std::size_t>(size * size)), eye(x.size(), 0.0);
    for (double& value : x) value = (1 + static_cast<double>(random.next() >> 41) * 0x1p-23) * (random.below(2) ? 1 : -1);
    x[0] = kBeyondF16;
    x[1] = 1 + 0x1p-20;
    for (std::int64_t i = 0; i < size; ++i) eye[static_cast<std::size_t>(i * size + i)] = 1;
    return matmul_problem(Dtype::f32, Dtype::f32, size, size, size, x, eye);
}

// One key dominates each query by far more than 150, so O is that key's V row
// exactly; V carries low mantissa bits and values past f16's range.
Problem dominant_key_probe(std::uint64_t seed) {
    SplitMix64 random(seed);
    const std::int64_t s = 8, t = 8, d = 8;
    std::vector<double> q(s * d, 0.0), k(t * d, 0.0), v(t * d);
    for (std::int64_t i = 0; i < s; ++i) q[static_cast<std::size_t>(i * d + i)] = 32;
    for (std::int64_t i = 0; i < t; ++i) k[static_cast<std::size_t>(i * d + i)] = 32;  // score 1024 on the diagonal, 0 elsewhere
    for (double& value : v) value = 1 + static_cast<double>(random.next() >> 41) * 0x1p-23;
    v[0] = kBeyondF16;
    return attention_problem(Dtype::f32, Dtype::f32, s, t, d, q, k, v, false, 1.0);
}

TEST(ConformingPrecision, FullInputPrecisionAndRange) {
    Problem matmul = identity_probe(16, 20);
    EXPECT_EQ(matmul.output(), matmul.input(0));
    Problem attention = dominant_key_probe(21);
    EXPECT_EQ(attention.output(), attention.input(2));
}

// ---- determinism and batch invariance (C-ORD-02, C-ORD-03) --------------------

// An operator whose first input holds independent rows: `make` builds a
// problem of `rows` rows from their values; the other operands are fixed.
struct RowwiseCase {
    std::string name;
    std::int64_t length;         // values per row of the first input
    std::int64_t output_length;  // output values per row
    std::function<Problem(Dtype, Dtype, std::int64_t, const std::vector<double>&)> make;
};

std::vector<RowwiseCase> rowwise_cases() {
    SplitMix64 random(30);
    const auto b = normal(random, 257 * 19);
    const auto gamma = normal(random, 257);
    const auto beta = normal(random, 257);
    const auto keys = normal(random, 129 * 64);
    const auto values = normal(random, 129 * 64);
    return {
        {"matmul", 257, 19, [=](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& a) {
             return matmul_problem(in, out, rows, 257, 19, a, b);
         }},
        {"reduce_sum", 257, 1, [](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& x) {
             return rows_problem("reduce_sum", in, out, rows, 257, x);
         }},
        {"reduce_max", 257, 1, [](Dtype in, Dtype, std::int64_t rows, const std::vector<double>& x) {
             return rows_problem("reduce_max", in, in, rows, 257, x);
         }},
        {"softmax", 257, 257, [](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& x) {
             return rows_problem("softmax", in, out, rows, 257, x);
         }},
        {"layernorm", 257, 257, [=](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& x) {
             return layernorm_problem(in, out, rows, 257, x, gamma, beta);
         }},
        {"rmsnorm", 257, 257, [=](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& x) {
             return rmsnorm_problem(in, out, rows, 257, x, gamma);
         }},
        {"attention", 64, 64, [=](Dtype in, Dtype out, std::int64_t rows, const std::vector<double>& q) {
             return attention_problem(in, out, rows, 129, 64, q, keys, values);
         }},
    };
}

std::vector<unsigned char> output_row(const Problem& p, const RowwiseCase& c, std::int64_t row) {
    const auto& bytes = p.outputs.front().bytes();
    const std::size_t width = bytes.size() / static_cast<std::size_t>(p.outputs.front().size()) *
                              static_cast<std::size_t>(c.output_length);
    return {bytes.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row) * width),
            bytes.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(row + 1) * width)};
}

TEST_P(ConformingKernels, IdenticalForAnyThreadCountAndCall) {
    const auto [in, out] = GetParam();
    SplitMix64 random(31);
    for (const RowwiseCase& c : rowwise_cases()) {
        const std::int64_t rows = 37;
        const auto x = normal(random, static_cast<std::size_t>(rows * c.length));
        Problem first = c.make(in, out, rows, x);
        ASSERT_EQ(first.run({Violation::none, 1, 0}).status, kk::Status::ok) << c.name;
        for (const int threads : {2, 3}) {
            for (const std::uint64_t calls : {1, 7}) {
                Problem again = c.make(in, out, rows, x);
                ASSERT_EQ(again.run({Violation::none, threads, calls}).status, kk::Status::ok) << c.name;
                EXPECT_EQ(again.outputs.front().bytes(), first.outputs.front().bytes())
                    << c.name << " with " << threads << " threads, call " << calls;
            }
        }
    }
}

// The test row alone against the same row at positions 0, middle and last of
// batches of 2, 7 and 64, among N(0,1), zero and N(0, 1e4) rows.
// Returns the number of comparisons that differ.
int batch_variance(const RowwiseCase& c, Dtype in, Dtype out, const kk::Settings& settings) {
    SplitMix64 random(32);
    const auto test_row = normal(random, static_cast<std::size_t>(c.length));
    Problem alone = c.make(in, out, 1, test_row);
    EXPECT_EQ(alone.run(settings).status, kk::Status::ok);
    const auto reference = output_row(alone, c, 0);
    int differing = 0;
    for (const std::int64_t batch : {2, 7, 64}) {
        for (const std::int64_t position : {std::int64_t{0}, batch / 2, batch - 1}) {
            for (const double sigma : {1.0, 0.0, 1e4}) {
                auto x = normal(random, static_cast<std::size_t>(batch * c.length), 0, sigma);
                std::copy(test_row.begin(), test_row.end(), x.begin() + position * c.length);
                Problem batched = c.make(in, out, batch, x);
                EXPECT_EQ(batched.run(settings).status, kk::Status::ok);
                if (output_row(batched, c, position) != reference) ++differing;
            }
        }
    }
    return differing;
}

TEST_P(ConformingKernels, BatchInvariant) {
    const auto [in, out] = GetParam();
    for (const RowwiseCase& c : rowwise_cases())
        EXPECT_EQ(batch_variance(c, in, out, {Violation::none, 3, 0}), 0) << c.name;
}

// ---- checks ---------------------------------------------------------------------

TEST(ReductionChecks, DeclineUnlistedDtypeConfigurations) {
    const std::vector<double> none;
    auto status = [](Problem p) { return kk::supports(p.call(), {}); };
    Problem mixed = matmul_problem(Dtype::f16, Dtype::f32, 2, 2, 2, none, none);
    mixed.inputs[1] = Buffer(Dtype::bf16, {2, 2});
    EXPECT_EQ(status(mixed).status, kk::Status::unsupported);
    EXPECT_NE(status(mixed).message.find("matmul"), std::string::npos);
    EXPECT_EQ(status(matmul_problem(Dtype::f16, Dtype::bf16, 2, 2, 2, none, none)).status, kk::Status::unsupported);
    EXPECT_EQ(status(rows_problem("softmax", Dtype::f32, Dtype::f16, 2, 2, none)).status, kk::Status::unsupported);
    EXPECT_EQ(status(rows_problem("reduce_max", Dtype::f16, Dtype::f32, 2, 2, none)).status, kk::Status::unsupported);
    EXPECT_EQ(status(rows_problem("reduce_sum", Dtype::f64, Dtype::f64, 2, 2, none)).status, kk::Status::unsupported);
    Problem f16_accumulator = rows_problem("reduce_sum", Dtype::f16, Dtype::f16, 2, 2, none);
    kk::OpCall call = f16_accumulator.call();
    call.accumulate = Dtype::f16;
    EXPECT_EQ(kk::supports(call, {}).status, kk::Status::unsupported);
    for (const Config& config : kConfigs) {
        EXPECT_EQ(status(matmul_problem(config.in, config.out, 2, 2, 2, none, none)).status, kk::Status::ok);
        EXPECT_EQ(status(attention_problem(config.in, config.out, 2, 2, 2, none, none, none)).status, kk::Status::ok);
    }
}

TEST(ReductionChecks, RejectInconsistentShapesNamingThem) {
    const std::vector<double> none;
    Problem matmul = matmul_problem(Dtype::f32, Dtype::f32, 2, 3, 4, none, none);
    matmul.inputs[1] = Buffer(Dtype::f32, {5, 4});
    const kk::Result mismatch = kk::supports(matmul.call(), {});
    EXPECT_EQ(mismatch.status, kk::Status::invalid_argument);
    EXPECT_NE(mismatch.message.find("matmul"), std::string::npos) << mismatch.message;
    EXPECT_NE(mismatch.message.find("[2, 3]"), std::string::npos) << mismatch.message;
    EXPECT_NE(mismatch.message.find("[5, 4]"), std::string::npos) << mismatch.message;

    Problem rank4 = matmul;
    rank4.inputs[0] = Buffer(Dtype::f32, {1, 1, 2, 3});
    EXPECT_EQ(kk::supports(rank4.call(), {}).status, kk::Status::unsupported);

    Problem sum = rows_problem("reduce_sum", Dtype::f32, Dtype::f32, 4, 3, none);
    sum.outputs[0] = Buffer(Dtype::f32, {3});
    EXPECT_EQ(kk::supports(sum.call(), {}).status, kk::Status::invalid_argument);
    Problem flattened = rows_problem("reduce_sum", Dtype::f32, Dtype::f32, 4, 3, none);
    flattened.inputs[0] = Buffer(Dtype::f32, {2, 2, 3});
    EXPECT_EQ(kk::supports(flattened.call(), {}).status, kk::Status::ok) << "[2, 2, 3] -> [4]";
    flattened.outputs[0] = Buffer(Dtype::f32, {2, 2});
    EXPECT_EQ(kk::supports(flattened.call(), {}).status, kk::Status::ok) << "[2, 2, 3] -> [2, 2]";
    Problem empty_rows = rows_problem("softmax", Dtype::f32, Dtype::f32, 4, 0, none);
    EXPECT_EQ(kk::supports(empty_rows.call(), {}).status, kk::Status::invalid_argument);

    Problem norm = layernorm_problem(Dtype::f32, Dtype::f32, 2, 3, none, none, none);
    norm.inputs[2] = Buffer(Dtype::f32, {4});
    EXPECT_EQ(kk::supports(norm.call(), {}).status, kk::Status::invalid_argument);
    Problem counts = rmsnorm_problem(Dtype::f32, Dtype::f32, 2, 3, none, none);
    counts.inputs.pop_back();
    EXPECT_EQ(kk::supports(counts.call(), {}).status, kk::Status::invalid_argument);

    Problem attention = attention_problem(Dtype::f32, Dtype::f32, 2, 3, 4, none, none, none);
    attention.inputs[2] = Buffer(Dtype::f32, {3, 5});
    const kk::Result head = kk::supports(attention.call(), {});
    EXPECT_EQ(head.status, kk::Status::invalid_argument);
    EXPECT_NE(head.message.find("attention"), std::string::npos) << head.message;
}

TEST(ReductionChecks, ValidateAttributes) {
    const std::vector<double> none;
    Problem bad_eps = layernorm_problem(Dtype::f32, Dtype::f32, 2, 3, none, none, none, -1.0);
    EXPECT_EQ(kk::supports(bad_eps.call(), {}).status, kk::Status::invalid_argument);
    Problem zero_eps = rmsnorm_problem(Dtype::f32, Dtype::f32, 2, 3, none, none, 0.0);
    EXPECT_EQ(kk::supports(zero_eps.call(), {}).status, kk::Status::invalid_argument);
    Problem text_scale = attention_problem(Dtype::f32, Dtype::f32, 2, 2, 2, none, none, none);
    text_scale.attributes["scale"] = std::string("large");
    EXPECT_EQ(kk::supports(text_scale.call(), {}).status, kk::Status::invalid_argument);
    Problem unknown = rows_problem("softmax", Dtype::f32, Dtype::f32, 2, 2, none);
    unknown.attributes["axis"] = std::int64_t{0};
    EXPECT_EQ(kk::supports(unknown.call(), {}).status, kk::Status::unsupported);
}

TEST(ReductionChecks, DefaultAttentionScaleIsOneOverSqrtD) {
    SplitMix64 random(33);
    const auto q = normal(random, 4 * 16), k = normal(random, 5 * 16), v = normal(random, 5 * 16);
    Problem by_default = attention_problem(Dtype::f32, Dtype::f32, 4, 5, 16, q, k, v);
    Problem explicit_scale = attention_problem(Dtype::f32, Dtype::f32, 4, 5, 16, q, k, v, false, 0.25);
    EXPECT_EQ(by_default.output(), explicit_scale.output());
}

// ---- violations: functional test and contract break -----------------------------

// The catalog's functional-test problem of an operator (allclose-1e-2: N(0,1)
// inputs at its shape), in the given dtype configuration.
Problem functional_problem(const std::string& name, Dtype in, Dtype out) {
    SplitMix64 random(40);
    if (name == "matmul") return matmul_problem(in, out, 128, 128, 128, normal(random, 128 * 128), normal(random, 128 * 128));
    if (name == "attention")
        return attention_problem(in, out, 128, 128, 64, normal(random, 128 * 64), normal(random, 128 * 64),
                                 normal(random, 128 * 64));
    const auto x = normal(random, 128 * 1024);
    if (name == "layernorm") return layernorm_problem(in, out, 128, 1024, x, normal(random, 1024), normal(random, 1024));
    if (name == "rmsnorm") return rmsnorm_problem(in, out, 128, 1024, x, normal(random, 1024));
    return rows_problem(name, in, name == "reduce_max" ? in : out, 128, 1024, x);
}

struct FunctionalCase {
    Violation violation;
    std::string op;
    Dtype in = Dtype::f32;
    Dtype out = Dtype::f32;
};

void PrintTo(const FunctionalCase& c, std::ostream* os) { *os << c.op; }

std::string functional_case_name(const testing::TestParamInfo<FunctionalCase>& info) {
    std::string name;
    for (const auto& v : kk::violations())
        if (v.violation == info.param.violation) name = std::string(v.name);
    std::replace(name.begin(), name.end(), '-', '_');
    return name + "_" + info.param.op + "_" + std::string(kk::name_of(info.param.in)) + "_to_" +
           std::string(kk::name_of(info.param.out));
}

std::vector<FunctionalCase> functional_cases() {
    std::vector<FunctionalCase> cases;
    const std::vector<std::string> composites = {"matmul", "reduce_sum", "softmax", "layernorm", "rmsnorm", "attention"};
    for (const Violation v : {Violation::f16_accumulate, Violation::bf16_accumulate})
        for (const auto& op : composites) cases.push_back({v, op});
    cases.push_back({Violation::naive_softmax, "softmax"});
    cases.push_back({Violation::naive_softmax, "attention"});
    cases.push_back({Violation::one_pass_variance, "layernorm"});
    cases.push_back({Violation::contracted_mul_add, "layernorm"});
    for (const Violation v : {Violation::tf32_inputs, Violation::f16_coercion})
        for (const std::string op : {"matmul", "attention"}) cases.push_back({v, op});
    for (const Violation v : {Violation::lowprec_split_partials, Violation::nondeterministic_order,
                              Violation::batch_dependent_split})
        for (const std::string op : {"matmul", "reduce_sum"}) cases.push_back({v, op});
    cases.push_back({Violation::nan_dropping_max, "reduce_max"});
    return cases;
}

// Violator and operator pairs measured to fail the functional test (the
// printed ratio is the evidence; the test is not tuned to them). A running
// sum rounded to f16 (11 significant bits) after every add errs by about
// 2^-11 * K / sqrt(6) on N(0,1) data, beyond atol = 1e-2 near zero outputs
// for K = 128 (matmul) and 1024 (reduce_sum, layernorm's statistics); bf16
// (8 bits) fails everywhere. TF32 (and f16, equal on N(0,1) data) inputs
// give a 128x128x128 product an error of about 4e-3 rms: the worst of 16384
// outputs crosses the limit for this seed (about half the seeds pass).
bool expected_to_fail_functional(const FunctionalCase& c) {
    switch (c.violation) {
        // Measured at these shapes (reductions over 1024 terms, matmul over
        // 128) with 64-term f32 tiles in the narrow accumulator.
        case Violation::f16_accumulate: return c.op == "reduce_sum";
        case Violation::bf16_accumulate: return c.op == "matmul" || c.op == "reduce_sum" || c.op == "attention";
        case Violation::tf32_inputs:
        case Violation::f16_coercion: return c.op == "matmul";
        default: return false;
    }
}

class ViolationFunctionalTest : public testing::TestWithParam<FunctionalCase> {};

INSTANTIATE_TEST_SUITE_P(Violators, ViolationFunctionalTest, testing::ValuesIn(functional_cases()),
                         functional_case_name);

TEST_P(ViolationFunctionalTest, AllcloseAgainstOracle) {
    const FunctionalCase c = GetParam();
    Problem p = functional_problem(c.op, c.in, c.out);
    const Worst worst = allclose_ratio(p.output({c.violation, 2, 1}), oracle_values(p));
    const double error = std::fabs(worst.got - worst.exact);
    std::printf("[functional] %-24s max |err| / allclose limit = %.4f (at element %zu: |err| %.3g, limit %.3g)\n",
                functional_case_name({c, 0}).c_str(), worst.ratio, worst.index, error, worst.bound);
    if (expected_to_fail_functional(c)) {
        EXPECT_GT(worst.ratio, 1.0) << "now passes allclose: drop it from expected_to_fail_functional";
    } else {
        EXPECT_LE(worst.ratio, 1.0) << describe(worst);
    }
}

std::vector<double> ones(std::size_t n) { return std::vector<double>(n, 1.0); }

TEST(ViolationBreaks, NarrowAccumulatorsLoseLongSums) {
    // 4096 terms of 1 + 2^-7: every partial sum is exact in f32 (the
    // conforming result is exactly 4128), but a running sum held in f16
    // cannot hold the half each 64-term tile (64.5) adds once its spacing
    // reaches 1 (from 1024): ties to even leave it at 4104.
    const double term = 1.0 + 0x1p-7, exact = 4128.0;
    for (const auto violation : {Violation::f16_accumulate}) {
        Problem sum = rows_problem("reduce_sum", Dtype::f32, Dtype::f32, 1, 4096, std::vector<double>(4096, term));
        EXPECT_EQ(sum.output(), std::vector<double>{exact});
        EXPECT_NE(sum.output({violation}), std::vector<double>{exact});
        Problem product = matmul_problem(Dtype::f32, Dtype::f32, 1, 4096, 1, std::vector<double>(4096, term), ones(4096));
        EXPECT_EQ(product.output(), std::vector<double>{exact});
        EXPECT_NE(product.output({violation}), std::vector<double>{exact});
    }
    // bf16 has 8 significand bits: adding a 64-term tile of ones to 16384
    // is a tie that rounds back to 16384, so a sum of 32768 ones stalls there.
    Problem ones_sum = rows_problem("reduce_sum", Dtype::f32, Dtype::f32, 1, 32768, ones(32768));
    EXPECT_EQ(ones_sum.output({Violation::bf16_accumulate}), std::vector<double>{16384.0});
}

TEST(ViolationBreaks, NaiveSoftmaxOverflowsOnLargeLogits) {
    SplitMix64 random(41);
    auto x = normal(random, 128);
    x[17] = 100;
    Problem softmax = rows_problem("softmax", Dtype::f32, Dtype::f32, 1, 128, x);
    const auto conforming = softmax.output();
    EXPECT_TRUE(std::all_of(conforming.begin(), conforming.end(), [](double y) { return std::isfinite(y); }));
    const auto naive = softmax.output({Violation::naive_softmax});
    EXPECT_TRUE(std::any_of(naive.begin(), naive.end(), [](double y) { return !std::isfinite(y); }));

    Problem attention = attention_problem(Dtype::f32, Dtype::f32, 4, 8, 8, normal(random, 32), normal(random, 64),
                                          normal(random, 64), false, 60.0);
    const auto stable = attention.output();
    EXPECT_TRUE(std::all_of(stable.begin(), stable.end(), [](double y) { return std::isfinite(y); }));
    const auto overflowed = attention.output({Violation::naive_softmax});
    EXPECT_TRUE(std::any_of(overflowed.begin(), overflowed.end(), [](double y) { return !std::isfinite(y); }));
}

TEST(ViolationBreaks, OnePassVarianceFailsLargeMeanRows) {
    SplitMix64 random(42);
    Problem p = layernorm_problem(Dtype::f32, Dtype::f32, 64, 1024, normal(random, 64 * 1024, 1e4, 1e-2), ones(1024),
                                  std::vector<double>(1024, 0.0));
    const auto broken = p.output({Violation::one_pass_variance});
    const auto nans = std::count_if(broken.begin(), broken.end(), [](double y) { return std::isnan(y); });
    std::printf("[break] one-pass-variance: %td of %zu outputs NaN\n", nans, broken.size());
    EXPECT_GT(nans, 0);
    // The two-pass kernel is judged by C-PRC-02, not allclose: its f32 mean
    // of values near 1e4 errs by about 1e-2, the spread itself.
    expect_layernorm_stable(p, Dtype::f32);
}

TEST(ViolationBreaks, InputCoercionsBreakExactnessProbes) {
    Problem matmul = identity_probe(16, 43);
    const auto x = matmul.input(0);
    const auto tf32 = matmul.output({Violation::tf32_inputs});
    EXPECT_NE(tf32, x);
    EXPECT_EQ(tf32[1], 1.0) << "1 + 2^-20 loses its low bit";
    EXPECT_EQ(tf32[0], kBeyondF16) << "TF32 keeps f32's range";
    const auto f16 = matmul.output({Violation::f16_coercion});
    EXPECT_EQ(f16[0], kInf) << "69632 overflows f16";

    Problem attention = dominant_key_probe(44);
    const auto v = attention.input(2);
    EXPECT_NE(attention.output({Violation::tf32_inputs}), v);
    EXPECT_EQ(attention.output({Violation::f16_coercion})[0], kInf);

    // f16 inputs are already narrow: the coercions leave them alone.
    SplitMix64 random(45);
    Problem narrow = matmul_problem(Dtype::f16, Dtype::f32, 8, 8, 8, normal(random, 64), normal(random, 64));
    EXPECT_EQ(narrow.output({Violation::tf32_inputs}), narrow.output());
}

TEST(ViolationBreaks, NondeterministicOrderChangesBetweenCalls) {
    SplitMix64 random(46);
    for (const std::string op : {"reduce_sum", "matmul"}) {
        Problem p = op == "matmul" ? matmul_problem(Dtype::f32, Dtype::f32, 8, 4096, 8, normal(random, 8 * 4096),
                                                    normal(random, 4096 * 8))
                                   : rows_problem(op, Dtype::f32, Dtype::f32, 64, 4096, normal(random, 64 * 4096));
        const auto first = p.output({Violation::nondeterministic_order, 1, 0});
        const auto second = p.output({Violation::nondeterministic_order, 1, 1});
        EXPECT_NE(first, second) << op;
        EXPECT_EQ(p.output({Violation::nondeterministic_order, 3, 0}), first) << op << ": only the call changes it";
    }
}

TEST(ViolationBreaks, BatchDependentSplitChangesRowsWithBatchSize) {
    for (const RowwiseCase& c : rowwise_cases()) {
        if (c.name != "matmul" && c.name != "reduce_sum") continue;
        EXPECT_GT(batch_variance(c, Dtype::f32, Dtype::f32, {Violation::batch_dependent_split}), 0) << c.name;
    }
}

// C-ORD-01's adversarial problem: +L first and -L last among N(0,1) terms.
// A partial sum near L = 2^14 stored in f16 (spacing 16) drops the small terms.
TEST(ViolationBreaks, LowprecSplitPartialsExceedOrderBound) {
    SplitMix64 random(47);
    const std::int64_t k = 256, rows = 16;
    auto x = normal(random, rows * k);
    for (std::int64_t r = 0; r < rows; ++r) {
        x[static_cast<std::size_t>(r * k)] = 0x1p14;
        x[static_cast<std::size_t>(r * k + k - 1)] = -0x1p14;
    }
    Problem p = rows_problem("reduce_sum", Dtype::f16, Dtype::f16, rows, k, x);
    const auto oracle = ref::reduce_sum_oracle(p.input(0), row_shape(p));
    const auto bound = [&](std::size_t i) {
        return 2.0 * ref::gamma(k - 1, kAccumulatorRoundoff) * oracle.magnitude[i] + roundoff(Dtype::f16) * std::fabs(oracle.value[i]);
    };
    EXPECT_LE(worst_ratio(p.output(), oracle.value, bound).ratio, 1.0);
    const Worst broken = worst_ratio(p.output({Violation::lowprec_split_partials}), oracle.value, bound);
    EXPECT_GT(broken.ratio, 1.0) << describe(broken);

    // matmul: products +-2^14 as 2^7 * 2^7 in the first and last position of K.
    auto a = normal(random, 4 * k);
    auto b = normal(random, k * 4);
    for (std::int64_t m = 0; m < 4; ++m) {
        a[static_cast<std::size_t>(m * k)] = 0x1p7;
        a[static_cast<std::size_t>(m * k + k - 1)] = -0x1p7;
    }
    for (std::int64_t n = 0; n < 4; ++n) {
        b[static_cast<std::size_t>(n)] = 0x1p7;
        b[static_cast<std::size_t>((k - 1) * 4 + n)] = 0x1p7;
    }
    Problem product = matmul_problem(Dtype::f16, Dtype::f16, 4, k, 4, a, b);
    const auto exact = matmul_oracle(product);
    const auto product_bound = [&](std::size_t i) {
        return 2.0 * ref::gamma(k - 1, kAccumulatorRoundoff) * exact.magnitude[i] + roundoff(Dtype::f16) * std::fabs(exact.value[i]);
    };
    EXPECT_LE(worst_ratio(product.output(), exact.value, product_bound).ratio, 1.0);
    EXPECT_GT(worst_ratio(product.output({Violation::lowprec_split_partials}), exact.value, product_bound).ratio, 1.0);
}

TEST(ViolationBreaks, NanDroppingMaxLosesNaN) {
    Problem p = rows_problem("reduce_max", Dtype::f32, Dtype::f32, 3, 4,
                             {kNaN, 1, 2, 3, 1, kNaN, 2, 3, kNaN, kNaN, kNaN, kNaN});
    const auto got = p.output({Violation::nan_dropping_max});
    EXPECT_EQ(got[0], 3.0);
    EXPECT_EQ(got[1], 3.0);
    EXPECT_TRUE(std::isnan(got[2])) << "an all-NaN row stays NaN";
}

TEST(ViolationBreaks, ContractedMulAddFusesTheLayernormAffineStep) {
    SplitMix64 random(48);
    Problem p = layernorm_problem(Dtype::f32, Dtype::f32, 16, 64, normal(random, 16 * 64), normal(random, 64),
                                  normal(random, 64));
    EXPECT_NE(p.output({Violation::contracted_mul_add}), p.output());
}

// store_row() converts a whole row at once where it may: every store must
// still have the bits of store() element by element, under the conforming
// settings and under the flushing and truncating ones that fall back to it.
// The values: random bit patterns (NaNs, infinities, subnormals of every
// format), ties of f16 and bf16, and values past f16's largest.
TEST(RowStores, GiveTheBitsOfStoringEachElement) {
    SplitMix64 random(2026);
    std::vector<float> values;
    for (int i = 0; i < 4096; ++i) values.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(random.next())));
    for (const float v : {0x1.002p0f, 0x1.006p0f, 0x1.0080p0f, 0x1.0180p0f, 65520.0f, 65519.0f, 1e-7f, -0.0f, 0x1p-149f})
        values.push_back(v);
    kk::Settings truncating, flushing;
    truncating.violation = Violation::bf16_truncate;
    flushing.conformer = kk::Conformer::ftz;
    for (const Dtype dtype : {Dtype::f32, Dtype::f16, Dtype::bf16})
        for (const kk::Settings& settings : {kk::Settings{}, truncating, flushing}) {
            const std::size_t bytes = values.size() * (dtype == Dtype::f32 ? 4 : 2) + 8;
            std::vector<unsigned char> by_row(bytes, 0xA5), by_element(bytes, 0xA5);
            const std::int64_t offset = 3;  // not at the start of the buffer
            const kk::Tensor row_tensor{by_row.data(), dtype, {}, {}};
            const kk::Tensor element_tensor{by_element.data(), dtype, {}, {}};
            kk::detail::store_row(row_tensor, offset, values, settings);
            for (std::size_t i = 0; i < values.size(); ++i)
                kk::detail::store(element_tensor, offset + static_cast<std::int64_t>(i), values[i], settings);
            EXPECT_EQ(by_row, by_element) << "dtype " << static_cast<int>(dtype) << ", violation "
                                          << static_cast<int>(settings.violation) << ", conformer "
                                          << static_cast<int>(settings.conformer);
        }
}

}  // namespace
