// The XNNPACK adapter through the C ABI, as the harness drives it: matmul,
// add, multiply, maximum and cast exact on whole numbers (f32, and f16
// where XNNPACK has it), softmax and sigmoid where their results are exact,
// all within the tensors they are given (outputs poisoned, guard bytes
// around every tensor); every operator and configuration XNNPACK has no
// operator for declined with a reason, matmul f16 declined unless
// f16_matmul=offer; bad options refused; the same bits with a thread pool
// as without; info() naming the shared object, the version, the threads
// and what cpuinfo detects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"
#include "matmul_abi_checks.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_XNNPACK_ADAPTER);
    return loaded;
}

// Whole numbers from -5 to 5 as f16 bit patterns (every one exact in f16).
std::vector<std::uint16_t> half_whole_numbers(std::size_t n, int seed) {
    static const std::uint16_t kHalves[11] = {0xc500, 0xc400, 0xc200, 0xc000, 0xbc00, 0x0000,
                                              0x3c00, 0x4000, 0x4200, 0x4400, 0x4500};
    std::vector<std::uint16_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = kHalves[(i * 7 + static_cast<std::size_t>(seed) * 3) % 11];
    return v;
}
float half_value(std::uint16_t h) {  // normal f16 values and zero alone
    if ((h & 0x7fff) == 0) return (h & 0x8000) ? -0.0f : 0.0f;
    const float magnitude = std::ldexp(static_cast<float>((h & 0x3ff) | 0x400), ((h >> 10) & 0x1f) - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

// B [K, N] is taken as it is (XNN_FLAG_TRANSPOSE_WEIGHTS): a product that
// read B transposed, or A's rows against the wrong batch, would differ.
TEST(XnnpackAdapter, ComputesMatmulsOfWholeNumbersExactly) {
    Instance instance(adapter().api());
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul(instance, {1, 1}, {1, 1}, {1, 1});
    expect_exact_matmul(instance, {1, 19}, {19, 33}, {1, 33});
    expect_exact_matmul(instance, {2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul(instance, {3, 17, 8}, {3, 8, 17}, {3, 17, 17});
}

TEST(XnnpackAdapter, ComputesTheElementwiseFunctionsExactly) {
    Instance instance(adapter().api());
    const std::size_t n = 37;  // a vector body and a tail
    const auto a = whole_numbers(n, 1), b = whole_numbers(n, 4);
    for (const char* function : {"add", "mul", "maximum"}) {
        Call call(instance, "elementwise");
        call.function(function);
        call.input(KCS_DTYPE_F32, {static_cast<std::int64_t>(n)}, a);
        call.input(KCS_DTYPE_F32, {static_cast<std::int64_t>(n)}, b);
        call.output(KCS_DTYPE_F32, {static_cast<std::int64_t>(n)});
        ASSERT_EQ(call.run(), KCS_OK) << function << ": " << instance.last_error();
        const auto y = call.result(0);
        for (std::size_t i = 0; i < n; ++i) {
            const float want = std::string(function) == "add"   ? a[i] + b[i]
                               : std::string(function) == "mul" ? a[i] * b[i]
                                                                : std::max(a[i], b[i]);
            EXPECT_EQ(y[i], want) << function << " element " << i;
        }
    }
    const auto ha = half_whole_numbers(n, 1), hb = half_whole_numbers(n, 4);
    for (const char* function : {"add", "mul"}) {
        Call call(instance, "elementwise");
        call.function(function);
        call.input_bits(KCS_DTYPE_F16, {static_cast<std::int64_t>(n)}, ha);
        call.input_bits(KCS_DTYPE_F16, {static_cast<std::int64_t>(n)}, hb);
        call.output(KCS_DTYPE_F16, {static_cast<std::int64_t>(n)});
        ASSERT_EQ(call.run(), KCS_OK) << function << " f16: " << instance.last_error();
        const auto y = call.result_bits(0);
        for (std::size_t i = 0; i < n; ++i) {
            const float x = half_value(ha[i]), z = half_value(hb[i]);
            EXPECT_EQ(half_value(y[i]), std::string(function) == "add" ? x + z : x * z) << function << " f16 " << i;
        }
    }
}

TEST(XnnpackAdapter, CastsBetweenF32AndF16Exactly) {
    Instance instance(adapter().api());
    const auto halves = half_whole_numbers(20, 2);  // 40 bytes: the f32 output after it stays aligned
    Call widen(instance, "cast");
    widen.input_bits(KCS_DTYPE_F16, {20}, halves);
    widen.output(KCS_DTYPE_F32, {20});
    ASSERT_EQ(widen.run(), KCS_OK) << instance.last_error();
    const auto floats = widen.result(0);
    for (std::size_t i = 0; i < halves.size(); ++i) EXPECT_EQ(floats[i], half_value(halves[i])) << i;
    // 1 + 2^-11 is halfway between 1 and the next f16: ties to even, 1.
    Call narrow(instance, "cast");
    narrow.input(KCS_DTYPE_F32, {3}, {2.5f, -0.0f, 1.0f + std::ldexp(1.0f, -11)});
    narrow.output(KCS_DTYPE_F16, {3});
    ASSERT_EQ(narrow.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(narrow.result_bits(0), (std::vector<std::uint16_t>{0x4100, 0x8000, 0x3c00}));
}

TEST(XnnpackAdapter, ComputesSoftmaxAndSigmoidWhereTheyAreExact) {
    Instance instance(adapter().api());
    const float inf = std::numeric_limits<float>::infinity();
    Call softmax(instance, "softmax");
    softmax.input(KCS_DTYPE_F32, {3, 4}, {0, 0, 0, 0, 1, 2, 3, -inf, -inf, 5, -inf, 5});
    softmax.output(KCS_DTYPE_F32, {3, 4});
    ASSERT_EQ(softmax.run(), KCS_OK) << instance.last_error();
    const auto y = softmax.result(0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 0.25f) << i;
    const double sum = std::exp(-2.0) + std::exp(-1.0) + 1.0;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(y[4 + i], std::exp(i - 2.0) / sum, 1e-6) << i;
    EXPECT_EQ(y[7], 0.0f);
    EXPECT_FALSE(std::signbit(y[7]));
    EXPECT_EQ(y[9], 0.5f);
    EXPECT_EQ(y[10], 0.0f);
    Call sigmoid(instance, "unary");
    sigmoid.function("sigmoid");
    sigmoid.input(KCS_DTYPE_F32, {3}, {0.0f, inf, -inf});
    sigmoid.output(KCS_DTYPE_F32, {3});
    ASSERT_EQ(sigmoid.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(sigmoid.result(0), (std::vector<float>{0.5f, 1.0f, 0.0f}));
}

TEST(XnnpackAdapter, DeclinesWhatXnnpackHasNoOperatorFor) {
    Instance instance(adapter().api());
    struct Case {
        const char* name;
        const char* function;
        kcs_dtype dtype;
        int inputs;
        const char* reason;  // a part of the message
    };
    const kcs_dtype f32 = KCS_DTYPE_F32, f16 = KCS_DTYPE_F16, bf16 = KCS_DTYPE_BF16;
    for (const Case& c :
         {Case{"unary", "exp", f32, 1, "no exp operator"},
          Case{"unary", "tanh", f32, 1, "xnn_create_tanh_nc_qs8 alone"},
          Case{"unary", "gelu", f32, 1, "no gelu operator"}, Case{"unary", "sigmoid", f16, 1, "f32 alone"},
          Case{"elementwise", "maximum", f16, 2, "f32 alone"},
          Case{"elementwise", "mul_add", f32, 3, "no multiply-add"}, Case{"elementwise", "add", bf16, 2, "f32 and f16"},
          Case{"softmax", "", f16, 1, "f32 -> f32 alone"},
          Case{"reduce_max", "", f32, 1, "no operator the adapter maps"},
          Case{"no_such_operator", "", f32, 1, "no operator the adapter maps"}}) {
        Call call(instance, c.name);
        call.function(c.function);
        for (int i = 0; i < c.inputs; ++i) call.input(c.dtype, {2, 3});
        call.output(c.dtype, std::string(c.name) == "reduce_max" ? std::vector<std::int64_t>{2}
                                                                 : std::vector<std::int64_t>{2, 3});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_NE(instance.last_error().find(c.reason), std::string::npos) << instance.last_error();
    }
    Call cast(instance, "cast");
    cast.input(KCS_DTYPE_F32, {4});
    cast.output(KCS_DTYPE_BF16, {4});
    EXPECT_EQ(cast.supports(), KCS_UNSUPPORTED);
    EXPECT_NE(instance.last_error().find("no bf16"), std::string::npos) << instance.last_error();
}

// K = 0 is XNNPACK's refusal, not the adapter's: its create function's status is the reason.
TEST(XnnpackAdapter, DeclinesAMatmulXnnpackRefusesWithItsStatus) {
    Instance instance(adapter().api());
    expect_declines_k_zero(instance, "xnn_create_fully_connected_nc_f32 returns xnn_status_invalid_parameter");
    Call empty(instance, "matmul");  // no rows: nothing to compute, nothing refused
    empty.input(KCS_DTYPE_F32, {0, 4});
    empty.input(KCS_DTYPE_F32, {4, 3}, whole_numbers(12, 1));
    empty.output(KCS_DTYPE_F32, {0, 3});
    EXPECT_EQ(empty.run(), KCS_OK) << instance.last_error();
}

// XNNPACK's f16 fully connected exists on this CPU but sums in f16; the
// catalog's f16 matmul sums in f32, so it is offered only on request.
TEST(XnnpackAdapter, OffersF16MatmulOnlyWhenAsked) {
    const auto a = half_whole_numbers(4 * 8, 1), b = half_whole_numbers(8 * 2, 2);
    for (const bool offer : {false, true}) {
        Instance instance(adapter().api(),
                          offer ? std::vector<std::string>{"f16_matmul=offer"} : std::vector<std::string>{});
        Call call(instance, "matmul");
        call.input_bits(KCS_DTYPE_F16, {4, 8}, a);
        call.input_bits(KCS_DTYPE_F16, {8, 2}, b);
        call.output(KCS_DTYPE_F16, {4, 2});
        if (!offer) {
            EXPECT_EQ(call.supports(), KCS_UNSUPPORTED);
            EXPECT_NE(instance.last_error().find("rounds its running sum to f16"), std::string::npos)
                << instance.last_error();
            continue;
        }
        ASSERT_EQ(call.run(), KCS_OK) << instance.last_error();
        const auto c = call.result_bits(0);
        for (std::size_t i = 0; i < 4; ++i)
            for (std::size_t j = 0; j < 2; ++j) {
                float want = 0;  // at most 8 * 25: exact in f16 at every step
                for (std::size_t l = 0; l < 8; ++l) want += half_value(a[i * 8 + l]) * half_value(b[l * 2 + j]);
                EXPECT_EQ(half_value(c[i * 2 + j]), want) << "C[" << i << ", " << j << "]";
            }
    }
}

// XNNPACK may read XNN_EXTRA_BYTES past an input: each buffer here holds
// exactly its tensor, so those reads land in the adapter's slack (a build
// under AddressSanitizer reports them where there is none).
TEST(XnnpackAdapter, ComputesOnTensorsThatEndTheirBuffers) {
    Instance instance(adapter().api());
    const std::vector<float> a{1, 2, 3, 4, 5, 6, 7}, b{7, 6, 5, 4, 3, 2, 1};
    const kcs_buffer ba = instance.alloc(28), bb = instance.alloc(28), by = instance.alloc(28);
    instance.write(ba, 0, a.data(), 28);
    instance.write(bb, 0, b.data(), 28);
    OpSpec spec{"elementwise", "add", 0, {}, {}, {}};
    spec.inputs = {tensor(ba, 0, KCS_DTYPE_F32, {7}), tensor(bb, 0, KCS_DTYPE_F32, {7})};
    spec.outputs = {tensor(by, 0, KCS_DTYPE_F32, {7})};
    const kcs_op op = spec.op();
    ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
    std::vector<float> y(7);
    instance.read(by, 0, y.data(), 28);
    EXPECT_EQ(y, std::vector<float>(7, 8.0f));
    // The slack is no part of the buffer: a range reaching into it is refused.
    float extra = 0;
    EXPECT_EQ(instance.api().read(instance.get(), by, 28, &extra, 4), KCS_INVALID_ARGUMENT);
}

TEST(XnnpackAdapter, GivesTheSameBitsWithAThreadPool) {
    const std::int64_t m = 64, k = 128, n = 512;
    std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = std::sin(static_cast<float>(i));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::cos(static_cast<float>(i) * 0.7f);
    std::vector<std::vector<float>> results;
    for (const char* threads : {"", "threads=1", "threads=2"}) {
        Instance instance(adapter().api(), *threads ? std::vector<std::string>{threads} : std::vector<std::string>{});
        Call call(instance, "matmul");
        call.input(KCS_DTYPE_F32, {m, k}, a);
        call.input(KCS_DTYPE_F32, {k, n}, b);
        call.output(KCS_DTYPE_F32, {m, n});
        ASSERT_EQ(call.run(), KCS_OK) << threads << ": " << instance.last_error();
        results.push_back(call.result(0));
    }
    EXPECT_EQ(results[0], results[1]);
    EXPECT_EQ(results[0], results[2]);
}

TEST(XnnpackAdapter, RefusesBadOptionsAndSaysWhatItTakes) {
    const kcs_adapter_api& api = adapter().api();
    for (const char* good : {"threads=1", "threads=2", "f16_matmul=decline", "f16_matmul=offer"})
        EXPECT_EQ(try_open(api, {good}), KCS_OK) << good << ": " << api.last_error(nullptr);
    for (const char* bad : {"threads=0", "threads=two", "f16_matmul=yes", "isa=avx2"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(std::string(api.last_error(nullptr)).find(key), std::string::npos) << api.last_error(nullptr);
    }
    EXPECT_NE(std::string(api.last_error(nullptr)).find("threads=N, f16_matmul=decline|offer"), std::string::npos)
        << api.last_error(nullptr);
}

TEST(XnnpackAdapter, InfoNamesTheLibraryItsVersionThreadsAndTheCpu) {
    Instance plain(adapter().api());
    std::string notes = notes_of(plain);
    for (const char* part :
         {"library: /", "libXNNPACK", "version: ", "threads: 1 (no pthreadpool", "CPU as cpuinfo detects it: has ",
          "xnn_create_fully_connected_nc_f32: xnn_status_success", "f16 declined"})
        EXPECT_NE(notes.find(part), std::string::npos) << part << "\n" << notes;
    Instance pooled(adapter().api(), {"threads=2", "f16_matmul=offer"});
    notes = notes_of(pooled);
    EXPECT_NE(notes.find("threads: 2 (threads="), std::string::npos) << notes;
    EXPECT_NE(notes.find("f16 -> f16 (f16_matmul=offer)"), std::string::npos) << notes;
}

}  // namespace
}  // namespace kcs::cpu_core::test
