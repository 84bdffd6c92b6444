// The OpenCL adapter's own behaviour through the C ABI: options and info,
// build options and the program cache. The bitwise agreement with
// reference-cpu that every device adapter owes is
// vendors/device_common/tests/bitwise_agreement_test.cpp, built into the
// same program.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "device_under_test.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& opencl() { return device_under_test().adapter; }

const std::string kCacheOption = std::string("cache_dir=") + KCS_OPENCL_TEST_CACHE;

TEST(OpenclOpen, RefusesBadOptionsWithAMessage) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_EQ(try_open(opencl().api(), {"threads=2"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(opencl().api().last_error(nullptr)).find("unknown option 'threads'"), std::string::npos);
    EXPECT_EQ(try_open(opencl().api(), {"local_size=48"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(opencl().api().last_error(nullptr)).find("power of two"), std::string::npos);
    EXPECT_EQ(try_open(opencl().api(), {"device=no-such-device-name"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(opencl().api().last_error(nullptr)).find("no device's name contains it"), std::string::npos);
    EXPECT_EQ(try_open(opencl().api(), {"platform=7"}), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(try_open(opencl().api(), {"device=0", "device=0"}), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(try_open(opencl().api(), {"device=0", "platform=0", "local_size=64", kCacheOption}), KCS_OK)
        << opencl().api().last_error(nullptr);
}

TEST(OpenclOpen, InfoReportsTheDeviceAndHowF16IsComputed) {
    SKIP_WITHOUT_DEVICE();
    Instance instance(opencl().api(), {kCacheOption, "build_options=-cl-denorms-are-zero"});
    kcs_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(opencl().api().info(instance.get(), &info), KCS_OK);
    EXPECT_STREQ(info.adapter_name, "opencl");
    EXPECT_STRNE(info.device, "");
    EXPECT_STRNE(info.vendor, "");
    const std::string notes = info.notes;
    EXPECT_NE(notes.find("device cl_khr_fp16: "), std::string::npos) << notes;
    EXPECT_NE(notes.find("computed in f32"), std::string::npos) << notes;
    EXPECT_NE(notes.find("build options: -cl-denorms-are-zero"), std::string::npos) << notes;
    EXPECT_NE(notes.find("program cache: " KCS_OPENCL_TEST_CACHE), std::string::npos) << notes;
}

TEST(OpenclOpen, BadBuildOptionsFailTheRunWithTheBuildLog) {
    SKIP_WITHOUT_DEVICE();
    Instance instance(opencl().api(), {"cache_dir=none", "build_options=-cl-std=CL9.9"});
    const kcs_buffer buffer = instance.alloc(16);
    OpSpec spec{"cast", "", 0, {}, {tensor(buffer, 0, KCS_DTYPE_F16, {4})}, {tensor(buffer, 0, KCS_DTYPE_F32, {4})}};
    const kcs_op op = spec.op();
    EXPECT_EQ(opencl().api().run(instance.get(), &op), KCS_INVALID_ARGUMENT);
    EXPECT_NE(instance.last_error().find("-cl-std=CL9.9"), std::string::npos) << instance.last_error();
}

TEST(OpenclProgramCache, ASecondInstanceFindsTheBinariesTheFirstStored) {
    SKIP_WITHOUT_DEVICE();
    const std::filesystem::path dir = std::filesystem::path(KCS_OPENCL_TEST_CACHE) / "cache-test";
    std::filesystem::remove_all(dir);
    const std::vector<Operand> in{{KCS_DTYPE_F32, {8}, random_bits(32, 1)}};
    std::vector<Operand> out{{KCS_DTYPE_BF16, {8}, {}}};
    ASSERT_EQ(run_on(opencl().api(), {"cache_dir=" + dir.string()}, "cast", "", in, out), KCS_OK);
    std::size_t binaries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) binaries += entry.path().extension() == ".bin";
    EXPECT_EQ(binaries, 1u);
    std::vector<Operand> again{{KCS_DTYPE_BF16, {8}, {}}};
    ASSERT_EQ(run_on(opencl().api(), {"cache_dir=" + dir.string()}, "cast", "", in, again), KCS_OK);
    EXPECT_EQ(again[0].bytes, out[0].bytes);
}

}  // namespace
}  // namespace kcs::cpu_core::test
