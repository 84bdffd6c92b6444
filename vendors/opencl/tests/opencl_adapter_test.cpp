// The OpenCL adapter through the C ABI, loaded as the harness loads it:
// options and info, the program cache, gather's raise policy, and the
// operators whose contracts demand bitwise agreement (gather copies; cast
// and elementwise add, mul, maximum and mul_add round once, exactly) run on
// the OpenCL device and on reference-cpu with the same inputs, every
// output element compared bit for bit (NaN against NaN: their payloads are
// unspecified, except for gather, which copies them).
//
// Without an OpenCL device (no platform, or no device on it) every test is
// skipped, visibly: CTest counts them as skipped, never as passed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kcs/reference/testing/splitmix64.hpp"
#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

using Bytes = std::vector<unsigned char>;

LoadedAdapter& opencl() {
    static LoadedAdapter adapter(KCS_OPENCL_ADAPTER);
    return adapter;
}

const std::string kCacheOption = std::string("cache_dir=") + KCS_OPENCL_TEST_CACHE;

// Why the adapter cannot open a device here, or nullopt when it can.
std::optional<std::string> no_device_reason() {
    static const std::optional<std::string> reason = []() -> std::optional<std::string> {
        const char* option = kCacheOption.c_str();
        kcs_adapter* adapter = nullptr;
        if (opencl().api().open(&option, 1, &adapter) == KCS_OK) {
            opencl().api().close(adapter);
            return std::nullopt;
        }
        return std::string(opencl().api().last_error(nullptr));
    }();
    return reason;
}

#define SKIP_WITHOUT_OPENCL_DEVICE()                                                    \
    do {                                                                                \
        if (const auto reason = no_device_reason()) GTEST_SKIP() << "no OpenCL device: " << *reason; \
    } while (0)

std::size_t element_size(kcs_dtype dtype) {
    switch (dtype) {
        case KCS_DTYPE_F32: case KCS_DTYPE_I32: return 4;
        case KCS_DTYPE_I64: return 8;
        default: return 2;
    }
}

struct Operand {
    kcs_dtype dtype;
    std::vector<std::int64_t> shape;
    Bytes bytes;  // inputs: the contents; outputs: sized by shape
};

std::size_t elements(const std::vector<std::int64_t>& shape) {
    std::size_t n = 1;
    for (const auto extent : shape) n *= static_cast<std::size_t>(extent);
    return n;
}

// Random bit patterns: every class of value (NaN, inf, subnormal, zero of
// either sign) turns up in a few thousand elements.
Bytes random_bits(std::size_t bytes, std::uint64_t seed) {
    ref::testing::SplitMix64 random(seed);
    Bytes out(bytes);
    for (auto& b : out) b = static_cast<unsigned char>(random.next());
    return out;
}

// Runs op on one adapter: every tensor in a buffer of its own, at an odd
// element offset behind guard bytes, outputs poisoned first. Returns the
// run status and fills the outputs' bytes.
kcs_status run_on(const kcs_adapter_api& api, const std::vector<std::string>& options, const std::string& name,
                  const std::string& function, kcs_dtype accumulate, const std::vector<Operand>& inputs,
                  std::vector<Operand>& outputs) {
    Instance instance(api, options);
    OpSpec spec{name, function, accumulate, {}, {}, {}};
    auto place = [&](const Operand& operand, bool is_output) {
        const std::size_t size = element_size(operand.dtype);
        const std::uint64_t at = 3 * size;
        const std::uint64_t bytes = elements(operand.shape) * size;
        const kcs_buffer buffer = instance.alloc(at + bytes + 16);
        const Bytes fill(at + bytes + 16, 0xA5);
        instance.write(buffer, 0, fill.data(), fill.size());
        if (!is_output) instance.write(buffer, at, operand.bytes.data(), bytes);
        return tensor(buffer, at, operand.dtype, operand.shape);
    };
    for (const Operand& in : inputs) spec.inputs.push_back(place(in, false));
    for (const Operand& out : outputs) spec.outputs.push_back(place(out, true));
    const kcs_op op = spec.op();
    const kcs_status status = api.run(instance.get(), &op);
    EXPECT_TRUE(status == KCS_OK || status == KCS_OUT_OF_RANGE) << api.last_error(instance.get());
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::size_t size = element_size(outputs[i].dtype);
        outputs[i].bytes.resize(elements(outputs[i].shape) * size);
        instance.read(spec.outputs[i].buffer, 3 * size, outputs[i].bytes.data(), outputs[i].bytes.size());
        Bytes after(16);
        instance.read(spec.outputs[i].buffer, 3 * size + outputs[i].bytes.size(), after.data(), 16);
        EXPECT_EQ(after, Bytes(16, 0xA5)) << name << " wrote past output " << i;
    }
    return status;
}

bool is_nan(kcs_dtype dtype, const unsigned char* p) {
    if (dtype == KCS_DTYPE_F32) {
        std::uint32_t bits;
        std::memcpy(&bits, p, 4);
        return (bits & 0x7fffffffu) > 0x7f800000u;
    }
    std::uint16_t bits;
    std::memcpy(&bits, p, 2);
    return dtype == KCS_DTYPE_F16 ? (bits & 0x7fffu) > 0x7c00u : (bits & 0x7fffu) > 0x7f80u;
}

std::string hex(const unsigned char* p, std::size_t size) {
    std::string text = "0x";
    static const char* digits = "0123456789abcdef";
    for (std::size_t i = size; i-- > 0;) text.append(1, digits[p[i] >> 4]).append(1, digits[p[i] & 15]);
    return text;
}

// The op on OpenCL and on reference-cpu; every output element must have the
// same bits (or both be NaN, unless nan_payloads_matter).
void expect_bitwise_agreement(const std::string& name, const std::string& function, const std::vector<Operand>& inputs,
                              const Operand& output, bool nan_payloads_matter = false) {
    std::vector<Operand> got{output}, want{output};
    const kcs_status got_status = run_on(opencl().api(), {kCacheOption}, name, function, 0, inputs, got);
    const kcs_status want_status = run_on(reference_cpu().api(), {}, name, function, 0, inputs, want);
    ASSERT_EQ(got_status, want_status);
    const std::size_t size = element_size(output.dtype);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < elements(output.shape); ++i) {
        const unsigned char* g = got[0].bytes.data() + i * size;
        const unsigned char* w = want[0].bytes.data() + i * size;
        if (std::memcmp(g, w, size) == 0) continue;
        if (!nan_payloads_matter && is_nan(output.dtype, g) && is_nan(output.dtype, w)) continue;
        if (++mismatches <= 5) {
            std::string operands;
            for (const Operand& in : inputs)
                operands.append(" ").append(hex(in.bytes.data() + i * element_size(in.dtype), element_size(in.dtype)));
            ADD_FAILURE() << name << (function.empty() ? "" : " " + function) << " element " << i << ": operands"
                          << operands << ": opencl " << hex(g, size) << ", reference-cpu " << hex(w, size);
        }
    }
    EXPECT_EQ(mismatches, 0u) << name << " " << function;
}

constexpr std::size_t kElements = 4099;  // a few thousand, not a multiple of any work-group size

TEST(OpenclOpen, RefusesBadOptionsWithAMessage) {
    SKIP_WITHOUT_OPENCL_DEVICE();
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
    SKIP_WITHOUT_OPENCL_DEVICE();
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
    SKIP_WITHOUT_OPENCL_DEVICE();
    Instance instance(opencl().api(), {"cache_dir=none", "build_options=-cl-std=CL9.9"});
    const kcs_buffer buffer = instance.alloc(16);
    OpSpec spec{"cast", "", 0, {}, {tensor(buffer, 0, KCS_DTYPE_F16, {4})}, {tensor(buffer, 0, KCS_DTYPE_F32, {4})}};
    const kcs_op op = spec.op();
    EXPECT_EQ(opencl().api().run(instance.get(), &op), KCS_INVALID_ARGUMENT);
    EXPECT_NE(instance.last_error().find("-cl-std=CL9.9"), std::string::npos) << instance.last_error();
}

TEST(OpenclProgramCache, ASecondInstanceFindsTheBinariesTheFirstStored) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    const std::filesystem::path dir = std::filesystem::path(KCS_OPENCL_TEST_CACHE) / "cache-test";
    std::filesystem::remove_all(dir);
    const std::vector<Operand> in{{KCS_DTYPE_F32, {8}, random_bits(32, 1)}};
    std::vector<Operand> out{{KCS_DTYPE_BF16, {8}, {}}};
    ASSERT_EQ(run_on(opencl().api(), {"cache_dir=" + dir.string()}, "cast", "", 0, in, out), KCS_OK);
    std::size_t binaries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) binaries += entry.path().extension() == ".bin";
    EXPECT_EQ(binaries, 1u);
    std::vector<Operand> again{{KCS_DTYPE_BF16, {8}, {}}};
    ASSERT_EQ(run_on(opencl().api(), {"cache_dir=" + dir.string()}, "cast", "", 0, in, again), KCS_OK);
    EXPECT_EQ(again[0].bytes, out[0].bytes);
}

TEST(OpenclGather, RaisesForAnOutOfRangeIndex) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    const std::vector<std::int32_t> index{0, 2, -1, 1};
    Bytes index_bytes(index.size() * 4);
    std::memcpy(index_bytes.data(), index.data(), index_bytes.size());
    const std::vector<Operand> in{{KCS_DTYPE_F32, {3, 5}, random_bits(60, 2)}, {KCS_DTYPE_I32, {4}, index_bytes}};
    std::vector<Operand> out{{KCS_DTYPE_F32, {4, 5}, {}}};
    EXPECT_EQ(run_on(opencl().api(), {kCacheOption}, "gather", "", 0, in, out), KCS_OUT_OF_RANGE);
}

// ---- bitwise agreement with reference-cpu ---------------------------------------

TEST(OpenclBitwise, GatherCopiesEveryBit) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    const std::int64_t rows = 37, columns = 19, positions = 211;
    for (const kcs_dtype table : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        for (const kcs_dtype index : {KCS_DTYPE_I32, KCS_DTYPE_I64}) {
            ref::testing::SplitMix64 random(table * 10 + index);
            Bytes index_bytes(static_cast<std::size_t>(positions) * element_size(index));
            for (std::int64_t n = 0; n < positions; ++n) {
                const std::int64_t row = static_cast<std::int64_t>(random.next() % rows);
                std::memcpy(index_bytes.data() + n * element_size(index), &row, element_size(index));  // little-endian
            }
            const std::vector<Operand> in{
                {table, {rows, columns}, random_bits(rows * columns * element_size(table), table)},
                {index, {positions}, index_bytes}};
            expect_bitwise_agreement("gather", "", in, {table, {positions, columns}, {}}, true);
        }
    }
}

TEST(OpenclBitwise, CastRoundsOnceToNearestEven) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    const std::pair<kcs_dtype, kcs_dtype> configs[] = {
        {KCS_DTYPE_F32, KCS_DTYPE_F16}, {KCS_DTYPE_F32, KCS_DTYPE_BF16},
        {KCS_DTYPE_F16, KCS_DTYPE_F32}, {KCS_DTYPE_BF16, KCS_DTYPE_F32}};
    for (const auto& [from, to] : configs) {
        const std::vector<Operand> in{{from, {kElements}, random_bits(kElements * element_size(from), from * 7 + to)}};
        expect_bitwise_agreement("cast", "", in, {to, {kElements}, {}});
    }
}

TEST(OpenclBitwise, ElementwiseRoundsEachOperationOnce) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        for (const std::string function : {"add", "mul", "maximum", "mul_add"}) {
            const std::size_t bytes = kElements * element_size(dtype);
            std::vector<Operand> in{{dtype, {kElements}, random_bits(bytes, dtype * 3 + 1)},
                                    {dtype, {kElements}, random_bits(bytes, dtype * 3 + 2)}};
            if (function == "mul_add") in.push_back({dtype, {kElements}, random_bits(bytes, dtype * 3 + 3)});
            expect_bitwise_agreement("elementwise", function, in, {dtype, {kElements}, {}});
        }
    }
}

TEST(OpenclBitwise, ReduceMaxReturnsOneOfTheRowsValues) {
    SKIP_WITHOUT_OPENCL_DEVICE();
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        const std::vector<Operand> in{{dtype, {64, 33}, random_bits(64 * 33 * element_size(dtype), dtype + 40)}};
        expect_bitwise_agreement("reduce_max", "", in, {dtype, {64}, {}});
    }
}

}  // namespace
}  // namespace kcs::cpu_core::test
