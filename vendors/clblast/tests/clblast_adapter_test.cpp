// The CLBlast adapter through the C ABI, as the harness drives it: matmul
// on f32 by CLBlast, exact on whole numbers with both of CLBlast's GEMM
// kernels, within the tensors it is given (the outputs poisoned with NaN,
// guard bytes around every tensor); every other operator, dtype and zero
// extent declined with a reason; bad options refused; info() naming the
// shared object, the device and the kernel choice in force.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"
#include "matmul_abi_checks.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_CLBLAST_ADAPTER);
    return loaded;
}

// Without an OpenCL device (no PoCL installed) every test is SKIPPED, never passed.
const std::string& missing_device() { return open_failure(adapter().api()); }

class ClblastAdapter : public ::testing::Test {
protected:
    void SetUp() override {
        if (!missing_device().empty()) GTEST_SKIP() << "no OpenCL device: " << missing_device();
    }
};

// Both kernels, each forced for every size, and CLBlast's own choice.
class ClblastKernel : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        if (!missing_device().empty()) GTEST_SKIP() << "no OpenCL device: " << missing_device();
    }
};

TEST_P(ClblastKernel, ComputesSgemmExactlyWithinItsTensors) {
    Instance instance(adapter().api(), {std::string("gemm_kernel=") + GetParam()});
    EXPECT_NE(notes_of(instance).find(std::string("gemm_kernel: ") + GetParam()), std::string::npos);
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul(instance, {2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul(instance, {1, 1}, {1, 1}, {1, 1});
    expect_exact_matmul(instance, {8, 1}, {1, 33}, {8, 33});
}

INSTANTIATE_TEST_SUITE_P(GemmKernels, ClblastKernel, ::testing::Values("auto", "direct", "indirect"));

TEST_F(ClblastAdapter, DeclinesZeroExtentsWithCLBlastsReason) {
    Instance instance(adapter().api());
    expect_declines_k_zero(instance, "kInvalidDimension");
}

TEST_F(ClblastAdapter, DeclinesBf16AndF16WhereTheDeviceHasNoHalf) {
    Instance instance(adapter().api());
    const bool has_fp16 = notes_of(instance).find("cl_khr_fp16: yes") != std::string::npos;
    const kcs_dtype f16 = KCS_DTYPE_F16, bf16 = KCS_DTYPE_BF16, f32 = KCS_DTYPE_F32;
    const std::vector<std::pair<kcs_dtype, kcs_dtype>> declined{{f16, f32}, {bf16, f32}, {bf16, bf16}};
    for (const auto& [in, out] : declined) {
        Call call(instance, "matmul");
        call.input(in, {4, 8});
        call.input(in, {8, 2});
        call.output(out, {4, 2});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << in << " -> " << out;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << in << " -> " << out;
        EXPECT_NE(instance.last_error().find("CLBlast"), std::string::npos) << instance.last_error();
    }
    Call half(instance, "matmul");
    half.input(f16, {4, 8});
    half.input(f16, {8, 2});
    half.output(f16, {4, 2});
    EXPECT_EQ(half.supports(), has_fp16 ? KCS_OK : KCS_UNSUPPORTED) << instance.last_error();
    if (!has_fp16) {
        EXPECT_NE(instance.last_error().find("cl_khr_fp16"), std::string::npos) << instance.last_error();
    }
}

TEST_F(ClblastAdapter, DeclinesEveryOtherOperator) {
    Instance instance(adapter().api());
    expect_declines_every_other_operator(instance);
}

TEST_F(ClblastAdapter, RefusesAMisalignedTensor) {
    Instance instance(adapter().api());
    expect_refuses_a_misaligned_tensor(instance);
}

TEST_F(ClblastAdapter, RefusesBadOptionsAndSaysWhatItTakes) {
    const kcs_adapter_api& api = adapter().api();
    for (const char* bad : {"gemm_kernel=fast", "gemm_kernel=", "threads=2", "device=99", "platform=no such"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_NE(std::string(api.last_error(nullptr)), "") << bad;
    }
    EXPECT_EQ(try_open(api, {"gemm_kernel=fast"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("auto, direct or indirect"), std::string::npos)
        << api.last_error(nullptr);
    EXPECT_EQ(try_open(api, {"threads=2"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("gemm_kernel="), std::string::npos) << api.last_error(nullptr);
}

TEST_F(ClblastAdapter, InfoNamesTheLibraryDeviceAndKernelChoice) {
    Instance instance(adapter().api(), {"gemm_kernel=indirect", "build_options=-cl-denorms-are-zero"});
    const std::string notes = notes_of(instance);
    EXPECT_NE(notes.find("library: /"), std::string::npos) << notes;
    EXPECT_NE(notes.find("libclblast"), std::string::npos) << notes;
    EXPECT_NE(notes.find("XGEMM_MIN_INDIRECT_SIZE 0"), std::string::npos) << notes;
    EXPECT_NE(notes.find("CLBLAST_BUILD_OPTIONS: -cl-denorms-are-zero"), std::string::npos) << notes;
    EXPECT_NE(notes.find("XgemmDirect: "), std::string::npos) << notes;
    // CLBlast builds its programs with the option (its own option join needs the adapter's trailing space).
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    // An instance opened afterwards with CLBlast's own choice gets CLBlast's threshold back.
    Instance later(adapter().api());
    const std::string later_notes = notes_of(later);
    const auto own = later_notes.find("CLBlast's own ");
    ASSERT_NE(own, std::string::npos) << later_notes;
    const std::string value = later_notes.substr(own + 14, later_notes.find(')', own) - own - 14);
    EXPECT_NE(later_notes.find("(XGEMM_MIN_INDIRECT_SIZE " + value + ","), std::string::npos) << later_notes;
}

}  // namespace
}  // namespace kcs::cpu_core::test
