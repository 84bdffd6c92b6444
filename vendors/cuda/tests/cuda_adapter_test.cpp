// The CUDA adapter's own behaviour through the C ABI: options, info, and
// what the float controls do to results on the device (ftz flushes a
// subnormal sum, fmad fuses mul_add). The bitwise agreement with
// reference-cpu that every device adapter owes is
// vendors/device_common/tests/bitwise_agreement_test.cpp, built into the
// same program. Without a CUDA device the tests that run kernels are
// SKIPPED with the runtime's reason; options are refused either way
// (they are parsed before the device is opened).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "device_under_test.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& cuda() { return device_under_test().adapter; }

Bytes floats(const std::vector<float>& values) {
    Bytes bytes(values.size() * sizeof(float));
    std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

float first_float(const Operand& output) {
    float value = 0;
    std::memcpy(&value, output.bytes.data(), sizeof value);
    return value;
}

TEST(CudaOpen, RefusesBadOptionsBeforeLookingForADevice) {
    const kcs_adapter_api& api = cuda().api();
    for (const char* bad : {"threads=2", "fast_math=maybe", "local_size=48", "include=/nonexistent"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(std::string(api.last_error(nullptr)).find(key), std::string::npos) << api.last_error(nullptr);
    }
    EXPECT_EQ(try_open(api, {"fast_math=true", "fmad=false"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("contradicts fast_math=true"), std::string::npos);
}

TEST(CudaOpen, WithoutADeviceSaysSo) {
    const auto& reason = no_device_reason();
    if (!reason) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_NE(reason->find("no CUDA device"), std::string::npos) << *reason;
}

TEST(CudaOpen, InfoReportsTheDeviceAndTheFloatControlsAsBuilt) {
    SKIP_WITHOUT_DEVICE();
    Instance instance(cuda().api(), {"fast_math=true"});
    kcs_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(cuda().api().info(instance.get(), &info), KCS_OK);
    EXPECT_STREQ(info.adapter_name, "cuda");
    EXPECT_STREQ(info.vendor, "NVIDIA");
    EXPECT_STRNE(info.device, "");
    const std::string notes = info.notes;
    EXPECT_NE(notes.find("compute capability "), std::string::npos) << notes;
    EXPECT_NE(notes.find("CUDA driver "), std::string::npos) << notes;
    EXPECT_NE(notes.find("NVRTC "), std::string::npos) << notes;
    EXPECT_NE(notes.find("float controls: --use_fast_math -ftz=true -prec-div=false -prec-sqrt=false -fmad=true"),
              std::string::npos)
        << notes;
}

// 2^-126 - 2^-149 plus 2^-149 is 2^-126 - 0: subnormal operands. The
// default build adds them exactly; -ftz=true flushes both to zero.
TEST(CudaFloatControls, FtzFlushesSubnormalOperands) {
    SKIP_WITHOUT_DEVICE();
    const float tiny = std::ldexp(1.0f, -149), below_normal = std::ldexp(1.0f, -126) - tiny;
    const std::vector<Operand> in{{KCS_DTYPE_F32, {1}, floats({below_normal})}, {KCS_DTYPE_F32, {1}, floats({tiny})}};
    std::vector<Operand> exact{{KCS_DTYPE_F32, {1}, {}}}, flushed{{KCS_DTYPE_F32, {1}, {}}};
    ASSERT_EQ(run_on(cuda().api(), {}, "elementwise", "add", in, exact), KCS_OK) << cuda().api().last_error(nullptr);
    ASSERT_EQ(run_on(cuda().api(), {"ftz=true"}, "elementwise", "add", in, flushed), KCS_OK);
    EXPECT_EQ(first_float(exact[0]), std::ldexp(1.0f, -126));
    EXPECT_EQ(first_float(flushed[0]), 0.0f);
}

// a * b + c with a * b inexact: two roundings by default, one under fmad=true.
TEST(CudaFloatControls, FmadFusesMulAdd) {
    SKIP_WITHOUT_DEVICE();
    const float a = 1.0f + std::ldexp(1.0f, -12), c = -(1.0f + std::ldexp(1.0f, -11));
    const std::vector<Operand> in{{KCS_DTYPE_F32, {1}, floats({a})}, {KCS_DTYPE_F32, {1}, floats({a})},
                                  {KCS_DTYPE_F32, {1}, floats({c})}};
    std::vector<Operand> rounded{{KCS_DTYPE_F32, {1}, {}}}, fused{{KCS_DTYPE_F32, {1}, {}}};
    ASSERT_EQ(run_on(cuda().api(), {}, "elementwise", "mul_add", in, rounded), KCS_OK);
    ASSERT_EQ(run_on(cuda().api(), {"fmad=true"}, "elementwise", "mul_add", in, fused), KCS_OK);
    EXPECT_EQ(first_float(rounded[0]), 0.0f);                  // a*a = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11
    EXPECT_EQ(first_float(fused[0]), std::ldexp(1.0f, -24));   // fused: the 2^-24 survives
}

}  // namespace
}  // namespace kcs::cpu_core::test
