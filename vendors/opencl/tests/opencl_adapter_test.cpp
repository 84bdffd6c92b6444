// The OpenCL adapter's own behaviour through the C ABI: options and info,
// build options, the program cache and the order of the row reductions. The bitwise agreement with
// reference-cpu that every device adapter owes is
// vendors/device_common/tests/bitwise_agreement_test.cpp, built into the
// same program.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
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
    EXPECT_EQ(try_open(opencl().api(), {"local_size=8"}), KCS_INVALID_ARGUMENT);  // below the 16 lanes of a work-item
    EXPECT_NE(std::string(opencl().api().last_error(nullptr)).find("from 16 to 4096"), std::string::npos);
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

// The order README.md documents for the row reductions, computed here: L
// virtual work-items (the local size, or the next power of two at or above
// a shorter row, at least 32), virtual work-item i summing elements i,
// i + L, ... in order from -0, then the pairwise tree. The kernels run the
// L virtual work-items as L / 16 work-items of 16 lanes; the sums must be
// those of L scalar work-items, bit for bit, at every row length (shorter
// than 16, not a multiple of 16, longer than L).
float documented_row_sum(const std::vector<float>& row, std::size_t local_size) {
    const std::size_t length = row.size();
    const std::size_t l = length >= local_size ? local_size : std::max<std::size_t>(32, std::bit_ceil(length));
    std::vector<float> partial(l, -0.0f);
    for (std::size_t i = 0; i < l; ++i)
        for (std::size_t k = i; k < length; k += l) partial[i] = partial[i] + row[k];
    for (std::size_t half = l / 2; half > 0; half /= 2)
        for (std::size_t i = 0; i < half; ++i) partial[i] = partial[i] + partial[i + half];
    return partial[0];
}

TEST(OpenclRows, ReduceSumAddsInTheDocumentedOrder) {
    SKIP_WITHOUT_DEVICE();
    for (const std::size_t local_size : {16, 64, 256})
        for (const std::int64_t length : {1, 15, 17, 40, 64, 100, 1000, 4099}) {
            SCOPED_TRACE(::testing::Message() << "local_size " << local_size << ", rows of " << length);
            constexpr std::int64_t kRows = 3;
            const Bytes bits = random_bits(static_cast<std::size_t>(kRows * length) * 4, length * 31 + local_size);
            std::vector<float> values(static_cast<std::size_t>(kRows * length));
            std::memcpy(values.data(), bits.data(), bits.size());
            for (float& v : values)  // finite, of mixed magnitude: the order shows in the low bits
                v = std::ldexp(static_cast<float>(std::bit_cast<std::uint32_t>(v) % 2001u) - 1000.0f,
                               static_cast<int>(std::bit_cast<std::uint32_t>(v) >> 24) % 24 - 12);
            std::vector<Operand> in{{KCS_DTYPE_F32, {kRows, length}, {}}}, out{{KCS_DTYPE_F32, {kRows}, {}}};
            in[0].bytes.resize(values.size() * 4);
            std::memcpy(in[0].bytes.data(), values.data(), in[0].bytes.size());
            ASSERT_EQ(run_on(opencl().api(), {"local_size=" + std::to_string(local_size), kCacheOption}, "reduce_sum",
                             "", in, out),
                      KCS_OK);
            for (std::int64_t r = 0; r < kRows; ++r) {
                const std::vector<float> row(values.begin() + r * length, values.begin() + (r + 1) * length);
                float got;
                std::memcpy(&got, out[0].bytes.data() + r * 4, 4);
                const float want = documented_row_sum(row, local_size);
                EXPECT_EQ(std::bit_cast<std::uint32_t>(got), std::bit_cast<std::uint32_t>(want))
                    << "row " << r << ": " << got << " against " << want;
            }
        }
}

}  // namespace
}  // namespace kcs::cpu_core::test
