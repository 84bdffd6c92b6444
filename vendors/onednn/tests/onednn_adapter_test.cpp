// The oneDNN adapter through the C ABI, as the harness drives it: it
// declines the operators oneDNN has no primitive for, computes a small
// matmul exactly, a softmax to within rounding (masked entries exactly +0)
// and a mul_add by its post-op, declines rather than fails where this CPU lacks a configuration,
// takes its options once and refuses bad ones, and names the
// implementations oneDNN chose.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_ONEDNN_ADAPTER);
    return loaded;
}

TEST(OneDnnAdapter, DeclinesWhatOneDnnHasNoPrimitiveFor) {
    Instance instance(adapter().api());
    struct Case {
        const char* name;
        const char* function;
        int inputs;
    };
    for (const Case& c : {Case{"rmsnorm", "", 2}, Case{"unary", "erf", 1}, Case{"unary", "rsqrt", 1},
                          Case{"no_such_operator", "", 1}}) {
        Call call(instance, c.name);
        call.function(c.function);
        call.input(KCS_DTYPE_F32, {2, 3}, whole_numbers(6, 3));
        if (c.inputs == 2) call.input(KCS_DTYPE_F32, {3}, whole_numbers(3, 1));
        call.output(KCS_DTYPE_F32, {2, 3});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << c.name << " " << c.function;
        EXPECT_NE(instance.last_error(), "");
    }
}

TEST(OneDnnAdapter, ComputesAMatmulOfWholeNumbersExactly) {
    Instance instance(adapter().api());
    const std::int64_t batch = 2, m = 7, k = 19, n = 3;
    const auto a = whole_numbers(batch * m * k, 1), b = whole_numbers(batch * k * n, 2);
    Call call(instance, "matmul");
    call.input(KCS_DTYPE_F32, {batch, m, k}, a);
    call.input(KCS_DTYPE_F32, {batch, k, n}, b);
    call.output(KCS_DTYPE_F32, {batch, m, n});
    ASSERT_EQ(call.supports(), KCS_OK) << instance.last_error();
    ASSERT_EQ(call.run(), KCS_OK) << instance.last_error();
    const auto c = call.result(0);
    for (std::int64_t p = 0; p < batch; ++p)
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                float want = 0;
                for (std::int64_t l = 0; l < k; ++l) want += a[(p * m + i) * k + l] * b[(p * k + l) * n + j];
                EXPECT_EQ(c[(p * m + i) * n + j], want) << "batch " << p << ", C[" << i << ", " << j << "]";
            }
}

TEST(OneDnnAdapter, ComputesSoftmaxWithMaskedEntriesExactlyZero) {
    Instance instance(adapter().api());
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> x{0, 0, 0, 0, 1, 2, 3, -inf, -inf, 5, -inf, 5};
    Call call(instance, "softmax");
    call.input(KCS_DTYPE_F32, {3, 4}, x);
    call.output(KCS_DTYPE_F32, {3, 4});
    ASSERT_EQ(call.run(), KCS_OK) << instance.last_error();
    const auto y = call.result(0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(y[i], 0.25f) << i;
    const double sum = std::exp(-2.0) + std::exp(-1.0) + 1.0;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(y[4 + i], std::exp(i - 2.0) / sum, 1e-6) << i;
    EXPECT_EQ(y[7], 0.0f);
    EXPECT_FALSE(std::signbit(y[7]));
    EXPECT_EQ(y[8], 0.0f);
    EXPECT_EQ(y[9], 0.5f);
    EXPECT_EQ(y[10], 0.0f);
    EXPECT_EQ(y[11], 0.5f);
}

// mul_add's post-op belongs to its own primitive: an add created after it
// in the same instance adds two operands, nothing more.
TEST(OneDnnAdapter, ComputesMulAddAndThenAPlainAdd) {
    Instance instance(adapter().api());
    Call fused(instance, "elementwise");
    fused.function("mul_add");
    for (const std::vector<float>& v : {std::vector<float>{2, 3, 4}, {5, 6, 7}, {1, 1, 1}})
        fused.input(KCS_DTYPE_F32, {3}, v);
    fused.output(KCS_DTYPE_F32, {3});
    ASSERT_EQ(fused.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(fused.result(0), (std::vector<float>{11, 19, 29}));
    Call add(instance, "elementwise");
    add.function("add");
    add.input(KCS_DTYPE_F32, {3}, {2, 3, 4});
    add.input(KCS_DTYPE_F32, {3}, {5, 6, 7});
    add.output(KCS_DTYPE_F32, {3});
    ASSERT_EQ(add.run(), KCS_OK) << instance.last_error();
    EXPECT_EQ(add.result(0), (std::vector<float>{7, 9, 11}));
}

// bf16 and f16 depend on the CPU's ISA: where oneDNN creates no primitive
// the adapter declines, saying why; it never fails the call.
TEST(OneDnnAdapter, ReducedPrecisionIsComputedOrDeclined) {
    Instance instance(adapter().api());
    for (const kcs_dtype dtype : {KCS_DTYPE_BF16, KCS_DTYPE_F16}) {
        Call call(instance, "matmul");
        call.input(dtype, {4, 8});
        call.input(dtype, {8, 2});
        call.output(KCS_DTYPE_F32, {4, 2});
        const kcs_status status = call.supports();
        EXPECT_TRUE(status == KCS_OK || status == KCS_UNSUPPORTED) << status;
        if (status == KCS_UNSUPPORTED) {
            EXPECT_NE(instance.last_error().find("effective ISA"), std::string::npos) << instance.last_error();
        }
    }
}

TEST(OneDnnAdapter, TakesItsOptionsAndRefusesBadOnes) {
    const kcs_adapter_api& api = adapter().api();
    // The ISA cap first: oneDNN takes it before the process's first primitive.
    EXPECT_EQ(try_open(api, {"isa=avx2"}), KCS_OK) << api.last_error(nullptr);
    EXPECT_EQ(try_open(api, {"isa=avx2"}), KCS_OK) << api.last_error(nullptr);
    EXPECT_EQ(try_open(api, {"isa=sse41"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("isa=avx2"), std::string::npos) << api.last_error(nullptr);
    for (const char* good : {"fpmath=strict", "fpmath=bf16", "fpmath=f16", "fpmath=any", "threads=2"})
        EXPECT_EQ(try_open(api, {good}), KCS_OK) << good << ": " << api.last_error(nullptr);
    for (const char* bad : {"fpmath=fp8", "threads=0", "isa=avx9", "device=1"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(std::string(api.last_error(nullptr)).find(key), std::string::npos) << api.last_error(nullptr);
    }
}

TEST(OneDnnAdapter, InfoNamesTheImplementationsOneDnnChose) {
    Instance instance(adapter().api(), {"threads=2", "fpmath=strict"});
    std::string notes = notes_of(instance);
    for (const char* part : {"library: /", "libdnnl", "CPU runtime: ", "threads: 2", "ISA: ", "fpmath: strict",
                             "matmul f32 [64, 64] x f32 [64, 64] -> f32: "})
        EXPECT_NE(notes.find(part), std::string::npos) << part << "\n" << notes;
    Call call(instance, "matmul");
    call.input(KCS_DTYPE_F32, {2, 2}, whole_numbers(4, 1));
    call.input(KCS_DTYPE_F32, {2, 2}, whole_numbers(4, 2));
    call.output(KCS_DTYPE_F32, {2, 2});
    ASSERT_EQ(call.run(), KCS_OK) << instance.last_error();
    notes = notes_of(instance);
    EXPECT_NE(notes.find("\n  matmul f32 x f32 -> f32: "), std::string::npos) << notes;
}

}  // namespace
}  // namespace kcs::cpu_core::test
