// The torch adapter through the C ABI, as the harness drives it: matmul,
// elementwise functions, sums, maxima and casts exact on whole numbers,
// softmax and layer norm where their results are exact, gather by row with
// an out-of-range index as KCS_OUT_OF_RANGE, all within the tensors they
// are given (outputs poisoned, guard bytes around every tensor); what ATen
// does not compute declined with ATen's own reason; each option doing what
// it says (flush_denormal flushes and is undone after the call, also with
// another instance on another thread at once; gelu=tanh is the tanh form);
// bad options refused; info() naming ATen, its BLAS and
// oneDNN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"
#include "matmul_abi_checks.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_TORCH_ADAPTER);
    return loaded;
}

// The bf16 bit patterns of whole numbers from -5 to 5.
std::vector<std::uint16_t> bf16_of(const std::vector<float>& values) {
    std::vector<std::uint16_t> bits;
    for (const float v : values) {
        std::uint32_t u = 0;
        std::memcpy(&u, &v, 4);
        bits.push_back(static_cast<std::uint16_t>(u >> 16));  // exact: whole numbers up to 5 have 3 significant bits
    }
    return bits;
}

TEST(TorchAdapter, ComputesMatmulsOfWholeNumbersExactly) {
    Instance instance(adapter().api());
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul(instance, {1, 1}, {1, 1}, {1, 1});
    expect_exact_matmul(instance, {2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul(instance, {3, 33, 40}, {3, 40, 17}, {3, 33, 17});  // beyond bmm's small-size loop
}

TEST(TorchAdapter, ComputesTheElementwiseFunctionsSumsAndMaximaExactly) {
    Instance instance(adapter().api());
    const std::int64_t n = 37;  // a vector body and a tail
    const auto a = whole_numbers(n, 1), b = whole_numbers(n, 4), c = whole_numbers(n, 6);
    for (const std::string function : {"add", "mul", "maximum", "mul_add"}) {
        Call call(instance, "elementwise");
        call.function(function);
        call.input(KCS_DTYPE_F32, {n}, a);
        call.input(KCS_DTYPE_F32, {n}, b);
        if (function == "mul_add") call.input(KCS_DTYPE_F32, {n}, c);
        call.output(KCS_DTYPE_F32, {n});
        ASSERT_EQ(call.run(), KCS_OK) << function << ": " << instance.last_error();
        const auto y = call.result(0);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const float want = function == "add"   ? a[i] + b[i]
                               : function == "mul" ? a[i] * b[i]
                               : function == "maximum" ? std::max(a[i], b[i])
                                                       : a[i] * b[i] + c[i];
            EXPECT_EQ(y[i], want) << function << " element " << i;
        }
    }
    Call sum(instance, "reduce_sum");
    sum.input_bits(KCS_DTYPE_BF16, {3, 5}, bf16_of(whole_numbers(15, 2)));
    sum.output(KCS_DTYPE_F32, {3});  // bf16 -> f32: at::sum's dtype argument
    ASSERT_EQ(sum.run(), KCS_OK) << instance.last_error();
    Call max(instance, "reduce_max");
    max.input(KCS_DTYPE_F32, {3, 5}, whole_numbers(15, 2));
    max.output(KCS_DTYPE_F32, {3});
    ASSERT_EQ(max.run(), KCS_OK) << instance.last_error();
    const auto x = whole_numbers(15, 2), sums = sum.result(0), maxima = max.result(0);
    for (std::size_t r = 0; r < 3; ++r) {
        float s = 0, m = -INFINITY;
        for (std::size_t i = 0; i < 5; ++i) s += x[r * 5 + i], m = std::max(m, x[r * 5 + i]);
        EXPECT_EQ(sums[r], s) << "row " << r;
        EXPECT_EQ(maxima[r], m) << "row " << r;
    }
}

TEST(TorchAdapter, CastsAndRoundsTiesToEven) {
    Instance instance(adapter().api());
    // 1 + 2^-8 is halfway between 1 and the next bf16: ties to even, 1; 1 + 3 * 2^-8: up, to 1 + 2^-6.
    Call narrow(instance, "cast");
    narrow.input(KCS_DTYPE_F32, {3}, {2.5f, -0.0f, 1.0f + std::ldexp(1.0f, -8)});
    narrow.output(KCS_DTYPE_BF16, {3});
    ASSERT_EQ(narrow.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(narrow.result_bits(0), (std::vector<std::uint16_t>{0x4020, 0x8000, 0x3f80}));
    Call widen(instance, "cast");
    widen.input_bits(KCS_DTYPE_F16, {2}, {0x3c00, 0xc500});
    widen.output(KCS_DTYPE_F32, {2});
    ASSERT_EQ(widen.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(widen.result(0), (std::vector<float>{1.0f, -5.0f}));
}

TEST(TorchAdapter, ComputesSoftmaxAndLayerNormWhereTheyAreExact) {
    Instance instance(adapter().api());
    const float inf = std::numeric_limits<float>::infinity();
    Call softmax(instance, "softmax");
    softmax.input(KCS_DTYPE_F32, {2, 4}, {0, 0, 0, 0, -inf, 5, -inf, 5});
    softmax.output(KCS_DTYPE_F32, {2, 4});
    ASSERT_EQ(softmax.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(softmax.result(0), (std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f, 0, 0.5f, 0, 0.5f}));
    // x = (-1, 1): mean 0, variance 1, so y = gamma * x + beta up to eps's effect (1e-5 / 2 relative).
    Call norm(instance, "layernorm");
    norm.input(KCS_DTYPE_F32, {1, 2}, {-1, 1});
    norm.input(KCS_DTYPE_F32, {2}, {2, 3});
    norm.input(KCS_DTYPE_F32, {2}, {10, 20});
    norm.output(KCS_DTYPE_F32, {1, 2});
    norm.number("eps", 1e-5);
    ASSERT_EQ(norm.run(), KCS_OK) << instance.last_error();
    const auto y = norm.result(0);
    EXPECT_NEAR(y[0], 8.0f, 1e-4);
    EXPECT_NEAR(y[1], 23.0f, 1e-4);
}

TEST(TorchAdapter, GathersRowsAndReportsAnOutOfRangeIndex) {
    Instance instance(adapter().api());
    for (const kcs_dtype index : {KCS_DTYPE_I32, KCS_DTYPE_I64}) {
        Call gather(instance, "gather");
        gather.input(KCS_DTYPE_F32, {3, 2}, {0, 1, 10, 11, 20, 21});
        gather.input_indices(index, {4}, {2, 0, 2, 1});
        gather.output(KCS_DTYPE_F32, {4, 2});
        ASSERT_EQ(gather.run(), KCS_OK) << instance.last_error();
        EXPECT_EQ(gather.result(0), (std::vector<float>{20, 21, 0, 1, 20, 21, 10, 11}));
        for (const std::int64_t bad : {3, -1}) {
            Call outside(instance, "gather");
            outside.input(KCS_DTYPE_F32, {3, 2}, {0, 1, 10, 11, 20, 21});
            outside.input_indices(index, {2}, {0, bad});
            outside.output(KCS_DTYPE_F32, {2, 2});
            EXPECT_EQ(outside.supports(), KCS_OK) << instance.last_error();
            EXPECT_EQ(outside.run(), KCS_OUT_OF_RANGE) << bad;
            EXPECT_NE(instance.last_error().find("index out of range"), std::string::npos) << instance.last_error();
        }
    }
}

TEST(TorchAdapter, DeclinesWhatAtenDoesNotComputeWithItsReason) {
    Instance instance(adapter().api());
    struct Case {
        const char* name;
        const char* function;
        kcs_dtype input, output;
        int inputs;          // [3, 3] each, but rmsnorm's gamma [3]
        const char* reason;  // a part of the message
    };
    const kcs_dtype f32 = KCS_DTYPE_F32, f16 = KCS_DTYPE_F16, bf16 = KCS_DTYPE_BF16;
    for (const Case& c : {Case{"matmul", "", f16, f16, 2, "not implemented for 'Half'"},
                          Case{"matmul", "", bf16, f32, 2, "ATen returns BFloat16, not the output's f32"},
                          Case{"unary", "exp", f16, f16, 1, "not implemented for 'Half'"},
                          Case{"rmsnorm", "", f32, f32, 2, "ATen 1.13 has no RMS normalization"},
                          Case{"no_such_operator", "", f32, f32, 1, "maps no ATen function"}}) {
        Call call(instance, c.name);
        call.function(c.function);
        call.input(c.input, {3, 3});
        if (c.inputs == 2)
            call.input(c.input, std::string(c.name) == "rmsnorm" ? std::vector<std::int64_t>{3}
                                                                  : std::vector<std::int64_t>{3, 3});
        call.output(c.output, {3, 3});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_NE(instance.last_error().find(c.reason), std::string::npos) << instance.last_error();
    }
    // ATen 1.13's attention scales by 1/sqrt(D) alone.
    Call attention(instance, "attention");
    for (int i = 0; i < 3; ++i) attention.input(f32, {2, 4}, whole_numbers(8, i));
    attention.output(f32, {2, 4});
    attention.number("scale", 1.0);
    EXPECT_EQ(attention.supports(), KCS_UNSUPPORTED);
    EXPECT_NE(instance.last_error().find("no scale argument"), std::string::npos) << instance.last_error();
}

// flush_denormal=true flushes a subnormal product to zero, and only within
// its instance's calls: an instance without it, on the same thread after
// it, keeps the subnormal.
TEST(TorchAdapter, FlushesSubnormalsOnlyWhenAskedAndOnlyWithinTheCall) {
    const float tiny = std::ldexp(1.0f, -140);  // subnormal
    const auto product = [&](Instance& instance) {
        Call call(instance, "elementwise");
        call.function("mul");
        call.input(KCS_DTYPE_F32, {1}, {tiny});
        call.input(KCS_DTYPE_F32, {1}, {1.0f});
        call.output(KCS_DTYPE_F32, {1});
        EXPECT_EQ(call.run(), KCS_OK) << instance.last_error();
        return call.result(0)[0];
    };
    Instance plain(adapter().api());
    Instance flushing(adapter().api(), {"flush_denormal=true"});
    EXPECT_EQ(product(plain), tiny);
    EXPECT_EQ(product(flushing), 0.0f);
    EXPECT_EQ(product(plain), tiny);
}

// Two instances with different settings, used from two threads at once,
// each compute under their own: the flush of one (MXCSR, its calling
// thread's) never reaches the other's results.
TEST(TorchAdapter, InstancesOnTwoThreadsKeepTheirOwnSettings) {
    const float tiny = std::ldexp(1.0f, -140);
    const auto products = [&](const std::vector<std::string>& options, std::vector<float>& seen) {
        Instance instance(adapter().api(), options);
        for (int i = 0; i < 200; ++i) {
            Call call(instance, "elementwise");
            call.function("mul");
            call.input(KCS_DTYPE_F32, {64}, std::vector<float>(64, tiny));
            call.input(KCS_DTYPE_F32, {64}, std::vector<float>(64, 1.0f));
            call.output(KCS_DTYPE_F32, {64});
            if (call.run() != KCS_OK) return;
            for (const float y : call.result(0)) seen.push_back(y);
        }
    };
    std::vector<float> flushed, kept;
    std::thread flushing([&] { products({"flush_denormal=true"}, flushed); });
    products({}, kept);
    flushing.join();
    ASSERT_EQ(flushed.size(), 200u * 64u);
    ASSERT_EQ(kept.size(), 200u * 64u);
    EXPECT_EQ(std::count(flushed.begin(), flushed.end(), 0.0f), static_cast<long>(flushed.size()));
    EXPECT_EQ(std::count(kept.begin(), kept.end(), tiny), static_cast<long>(kept.size()));
}

TEST(TorchAdapter, GeluTanhIsTheTanhForm) {
    const auto gelu_of_one = [](const std::vector<std::string>& options) {
        Instance instance(adapter().api(), options);
        Call call(instance, "unary");
        call.function("gelu");
        call.input(KCS_DTYPE_F32, {1}, {1.0f});
        call.output(KCS_DTYPE_F32, {1});
        EXPECT_EQ(call.run(), KCS_OK) << instance.last_error();
        return call.result(0)[0];
    };
    EXPECT_NEAR(gelu_of_one({}), 0.8413447, 1e-6);              // x Phi(x)
    EXPECT_NEAR(gelu_of_one({"gelu=tanh"}), 0.8411920, 1e-6);  // the tanh approximation
}

TEST(TorchAdapter, RefusesBadOptionsAndSaysWhatItTakes) {
    const kcs_adapter_api& api = adapter().api();
    for (const char* good : {"threads=1", "threads=2", "deterministic=true", "flush_denormal=false", "gelu=tanh"})
        EXPECT_EQ(try_open(api, {good}), KCS_OK) << good << ": " << api.last_error(nullptr);
    for (const char* bad : {"threads=0", "deterministic=yes", "flush_denormal=1", "gelu=erf", "isa=avx2"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(std::string(api.last_error(nullptr)).find(key), std::string::npos) << api.last_error(nullptr);
    }
    EXPECT_NE(std::string(api.last_error(nullptr)).find("threads=N, deterministic=true|false"), std::string::npos)
        << api.last_error(nullptr);
}

TEST(TorchAdapter, InfoNamesAtenItsBlasOneDnnAndTheSettings) {
    Instance plain(adapter().api());
    std::string notes = notes_of(plain);
    for (const char* part : {"library: /", "libtorch_cpu", "version: ATen 1.13", "Debian package libtorch",
                             "BLAS: BLAS_INFO=generic", "(sgemm_)", "oneDNN: linked", "deterministic algorithms: off",
                             "flush denormal: off", "approximate=\"none\""})
        EXPECT_NE(notes.find(part), std::string::npos) << part << "\n" << notes;
    Instance set(adapter().api(), {"threads=2", "deterministic=true", "flush_denormal=true", "gelu=tanh"});
    notes = notes_of(set);
    for (const char* part : {"threads: 2 (threads=)", "deterministic algorithms: on", "flush denormal: on",
                             "approximate=\"tanh\""})
        EXPECT_NE(notes.find(part), std::string::npos) << part << "\n" << notes;
}

}  // namespace
}  // namespace kcs::cpu_core::test
