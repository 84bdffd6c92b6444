// supports() and run() through the C ABI: operators end to end against the
// oracles, with tensors at offsets inside larger buffers; declining,
// raising, and refusing malformed ops; calibration violations switched on.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/testing/splitmix64.hpp"
#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

constexpr unsigned char kGuard = 0xC3;

// A buffer holding guard bytes around each region the test places in it.
std::vector<unsigned char> guarded_bytes(std::size_t size) { return std::vector<unsigned char>(size, kGuard); }

std::vector<float> normal_floats(std::size_t n, std::uint64_t seed) {
    ref::testing::SplitMix64 random(seed);
    std::vector<float> v(n);
    for (auto& x : v) x = static_cast<float>(random.normal());
    return v;
}

TEST(Run, MatmulEndToEndAgainstTheOracle) {
    Instance instance(reference_cpu().api());
    const std::size_t batch = 2, m = 3, k = 37, n = 5;
    const auto a = normal_floats(batch * m * k, 1), b = normal_floats(batch * k * n, 2);
    // One buffer, three tensors at 4-byte aligned offsets with guard bytes between them.
    const std::uint64_t a_at = 12, b_at = a_at + a.size() * 4 + 20, c_at = b_at + b.size() * 4 + 36;
    const std::uint64_t c_bytes = batch * m * n * 4, size = c_at + c_bytes + 44;
    const kcs_buffer buffer = instance.alloc(size);
    const auto guards = guarded_bytes(size);
    instance.write(buffer, 0, guards.data(), size);
    instance.write(buffer, a_at, a.data(), a.size() * 4);
    instance.write(buffer, b_at, b.data(), b.size() * 4);

    OpSpec spec{"matmul", "", KCS_DTYPE_F32, {}, {}, {}};
    spec.inputs = {tensor(buffer, a_at, KCS_DTYPE_F32, {2, 3, 37}), tensor(buffer, b_at, KCS_DTYPE_F32, {2, 37, 5})};
    spec.outputs = {tensor(buffer, c_at, KCS_DTYPE_F32, {2, 3, 5})};
    const kcs_op op = spec.op();
    ASSERT_EQ(instance.api().supports(instance.get(), &op), KCS_OK) << instance.last_error();
    ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();

    std::vector<unsigned char> after(size);
    instance.read(buffer, 0, after.data(), size);
    std::vector<float> c(batch * m * n);
    std::memcpy(c.data(), after.data() + c_at, c_bytes);
    const std::vector<double> ad(a.begin(), a.end()), bd(b.begin(), b.end());
    const auto want = ref::matmul_oracle(ad, bd, {batch, m, k, n});
    for (std::size_t i = 0; i < c.size(); ++i)  // f32 accumulation: within K u of the magnitude
        EXPECT_NEAR(c[i], want.value[i], 2.0 * k * 0x1p-24 * want.magnitude[i]) << i;
    // Nothing outside the output changed: guards and inputs are intact.
    for (std::uint64_t i = 0; i < size; ++i) {
        if (i >= c_at && i < c_at + c_bytes) continue;
        const bool in_a = i >= a_at && i < a_at + a.size() * 4, in_b = i >= b_at && i < b_at + b.size() * 4;
        if (!in_a && !in_b) {
            ASSERT_EQ(after[i], kGuard) << "byte " << i;
        }
    }
    EXPECT_EQ(std::memcmp(after.data() + a_at, a.data(), a.size() * 4), 0);
}

// elementwise f16 add and mul_add, bitwise against the oracle.
TEST(Run, ElementwiseEndToEndAgainstTheOracle) {
    Instance instance(reference_cpu().api(), {"threads=3"});
    const std::size_t count = 1001;
    ref::testing::SplitMix64 random(5);
    std::vector<std::uint16_t> a(count), b(count), c(count);
    for (std::size_t i = 0; i < count; ++i) {
        a[i] = static_cast<std::uint16_t>(ref::encode(ref::Format::f16, random.normal() * 100));
        b[i] = static_cast<std::uint16_t>(ref::encode(ref::Format::f16, random.normal()));
        c[i] = static_cast<std::uint16_t>(random.next());  // any pattern: NaN and inf included
    }
    const std::uint64_t bytes = count * 2;
    const kcs_buffer inputs = instance.alloc(3 * bytes + 2), output = instance.alloc(bytes + 6);
    instance.write(inputs, 2, a.data(), bytes);
    instance.write(inputs, 2 + bytes, b.data(), bytes);
    instance.write(inputs, 2 + 2 * bytes, c.data(), bytes);
    const auto shape = std::vector<std::int64_t>{static_cast<std::int64_t>(count)};
    for (const char* function : {"add", "mul_add"}) {
        OpSpec spec{"elementwise", function, 0, {}, {}, {}};
        spec.inputs = {tensor(inputs, 2, KCS_DTYPE_F16, shape), tensor(inputs, 2 + bytes, KCS_DTYPE_F16, shape)};
        if (std::string(function) == "mul_add") spec.inputs.push_back(tensor(inputs, 2 + 2 * bytes, KCS_DTYPE_F16, shape));
        spec.outputs = {tensor(output, 6, KCS_DTYPE_F16, shape)};
        const kcs_op op = spec.op();
        ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
        std::vector<std::uint16_t> out(count);
        instance.read(output, 6, out.data(), bytes);
        for (std::size_t i = 0; i < count; ++i) {
            const double x = ref::decode(ref::Format::f16, a[i]), y = ref::decode(ref::Format::f16, b[i]),
                         z = ref::decode(ref::Format::f16, c[i]);
            const double want = std::string(function) == "add" ? ref::add_oracle(x, y, ref::Format::f16)
                                                               : ref::mul_add_oracle(x, y, z, ref::Format::f16).unfused;
            if (std::isnan(want)) {
                EXPECT_TRUE(ref::is_nan(ref::Format::f16, out[i])) << function << " " << i;
            } else {
                EXPECT_EQ(out[i], ref::encode(ref::Format::f16, want)) << function << " " << i;
            }
        }
    }
}

// A gather of f32 rows with i64 indices; f32 and i64 tensors in one buffer.
struct GatherSetup {
    kcs_buffer buffer = 0;
    OpSpec spec{"gather", "", 0, {}, {}, {}};
};

GatherSetup gather_setup(Instance& instance, const std::vector<std::int64_t>& indices) {
    GatherSetup s;
    std::vector<float> table(4 * 3);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = static_cast<float>(i) + 0.5f;
    const std::uint64_t index_at = 48, out_at = index_at + indices.size() * 8;
    s.buffer = instance.alloc(out_at + indices.size() * 3 * 4);
    instance.write(s.buffer, 0, table.data(), 48);
    instance.write(s.buffer, index_at, indices.data(), indices.size() * 8);
    const auto n = static_cast<std::int64_t>(indices.size());
    s.spec.inputs = {tensor(s.buffer, 0, KCS_DTYPE_F32, {4, 3}), tensor(s.buffer, index_at, KCS_DTYPE_I64, {n})};
    s.spec.outputs = {tensor(s.buffer, out_at, KCS_DTYPE_F32, {n, 3})};
    return s;
}

TEST(Run, GatherRaisesOutOfRange) {
    Instance instance(reference_cpu().api());
    GatherSetup ok = gather_setup(instance, {3, 0, 2});
    kcs_op op = ok.spec.op();
    ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
    std::vector<float> out(9);
    instance.read(ok.buffer, ok.spec.outputs[0].offset, out.data(), 36);
    EXPECT_EQ(out, (std::vector<float>{9.5f, 10.5f, 11.5f, 0.5f, 1.5f, 2.5f, 6.5f, 7.5f, 8.5f}));

    GatherSetup bad = gather_setup(instance, {1, 4, 0});
    op = bad.spec.op();
    EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_OUT_OF_RANGE);
    EXPECT_NE(instance.last_error().find("index[1] = 4"), std::string::npos) << instance.last_error();
}

TEST(Run, UnsupportedOperatorsAndConfigsAreDeclined) {
    Instance instance(reference_cpu().api());
    OpSpec unknown{"convolution", "", 0, {}, {tensor(0, 0, KCS_DTYPE_F32, {4})}, {tensor(0, 0, KCS_DTYPE_F32, {4})}};
    kcs_op op = unknown.op();
    EXPECT_EQ(instance.api().supports(instance.get(), &op), KCS_UNSUPPORTED);
    EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_UNSUPPORTED);  // declined before its buffers are looked at
    EXPECT_NE(instance.last_error().find("convolution"), std::string::npos) << instance.last_error();

    OpSpec mixed{"unary", "exp", 0, {}, {tensor(0, 0, KCS_DTYPE_F32, {4})}, {tensor(0, 0, KCS_DTYPE_F16, {4})}};
    op = mixed.op();
    EXPECT_EQ(instance.api().supports(instance.get(), &op), KCS_UNSUPPORTED);
    // supports() decides without buffers.
    OpSpec fine{"unary", "exp", 0, {}, {tensor(0, 0, KCS_DTYPE_BF16, {4})}, {tensor(0, 0, KCS_DTYPE_BF16, {4})}};
    op = fine.op();
    EXPECT_EQ(instance.api().supports(instance.get(), &op), KCS_OK);
}

TEST(Run, MalformedOpsAreInvalidArguments) {
    Instance instance(reference_cpu().api());
    const kcs_buffer buffer = instance.alloc(64);
    const auto valid = [&] {
        return OpSpec{"unary", "exp", 0, {}, {tensor(buffer, 0, KCS_DTYPE_F32, {4})},
                      {tensor(buffer, 16, KCS_DTYPE_F32, {4})}};
    };
    auto expect_invalid = [&](OpSpec spec, const char* why, auto&& spoil) {
        kcs_op op = spec.op();
        spoil(spec, op);
        EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_INVALID_ARGUMENT) << why;
        EXPECT_NE(instance.last_error(), "") << why;
    };
    {
        const OpSpec spec = valid();
        const kcs_op op = spec.op();
        ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
    }
    expect_invalid(valid(), "misaligned offset", [](OpSpec& s, kcs_op& op) { s.outputs[0].offset = 18; op = s.op(); });
    expect_invalid(valid(), "past the end", [](OpSpec& s, kcs_op& op) { s.outputs[0].offset = 52; op = s.op(); });
    expect_invalid(valid(), "unknown buffer", [](OpSpec& s, kcs_op& op) { s.inputs[0].buffer = 999; op = s.op(); });
    expect_invalid(valid(), "rank 9", [](OpSpec& s, kcs_op& op) { s.inputs[0].rank = 9; op = s.op(); });
    expect_invalid(valid(), "dtype 99", [](OpSpec& s, kcs_op& op) { s.inputs[0].dtype = 99; op = s.op(); });
    expect_invalid(valid(), "negative extent", [](OpSpec& s, kcs_op& op) { s.inputs[0].shape[0] = -4; op = s.op(); });
    expect_invalid(valid(), "huge extent", [](OpSpec& s, kcs_op& op) {
        s.inputs[0].shape[0] = std::numeric_limits<std::int64_t>::max();
        op = s.op();
    });
    expect_invalid(valid(), "short struct", [](OpSpec&, kcs_op& op) { op.struct_size = 8; });
    expect_invalid(valid(), "tensor_size below kcs_tensor", [](OpSpec&, kcs_op& op) { op.tensor_size = 8; });
    expect_invalid(valid(), "attribute_size below kcs_attribute", [](OpSpec&, kcs_op& op) { op.attribute_size = 0; });
    expect_invalid(valid(), "no name", [](OpSpec&, kcs_op& op) { op.name = nullptr; });
    expect_invalid(valid(), "null inputs", [](OpSpec&, kcs_op& op) { op.inputs = nullptr; });
    expect_invalid(valid(), "duplicate attribute", [](OpSpec& s, kcs_op& op) {
        s.attributes = {kcs_attribute{"eps", KCS_ATTR_FLOAT, 0, 1e-5, nullptr},
                        kcs_attribute{"eps", KCS_ATTR_FLOAT, 0, 1e-6, nullptr}};
        op = s.op();
    });
    EXPECT_EQ(instance.api().run(instance.get(), nullptr), KCS_INVALID_ARGUMENT);
}

// KCS-ABI-13: an op of 1.0 (no element sizes) is read with this header's
// sizes, and one of a later minor version whose tensors and attributes have
// grown is read element by element with the sizes it carries.
TEST(Run, OpsOfOtherMinorVersionsAreReadWithTheirElementSizes) {
    Instance instance(reference_cpu().api());
    const kcs_buffer buffer = instance.alloc(64);
    const std::vector<float> x{1.0f, 2.0f, 3.0f, 4.0f};
    instance.write(buffer, 0, x.data(), 16);
    OpSpec spec{"rmsnorm", "", KCS_DTYPE_F32, {kcs_attribute{"eps", KCS_ATTR_FLOAT, 0, 0.5, nullptr}},
                {tensor(buffer, 0, KCS_DTYPE_F32, {1, 4}), tensor(buffer, 48, KCS_DTYPE_F32, {4})},
                {tensor(buffer, 16, KCS_DTYPE_F32, {1, 4})}};
    const std::vector<float> gamma{1.0f, 1.0f, 1.0f, 1.0f};
    instance.write(buffer, 48, gamma.data(), 16);
    const auto result = [&](const kcs_op& op) {
        EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
        std::vector<float> y(4);
        instance.read(buffer, 16, y.data(), 16);
        return y;
    };
    const std::vector<float> expected = result(spec.op());

    kcs_op v1_0 = spec.op();
    v1_0.struct_size = KCS_OP_SIZE_1_0;
    v1_0.attribute_size = 0;  // beyond a 1.0 op: never read
    v1_0.tensor_size = 0;
    EXPECT_EQ(result(v1_0), expected);

    // Each element followed by 24 bytes of a later version's fields.
    struct GrownTensor { kcs_tensor t; std::byte later[24]; };
    struct GrownAttribute { kcs_attribute a; std::byte later[24]; };
    std::vector<GrownTensor> inputs(2), outputs(1);
    for (std::size_t i = 0; i < 2; ++i) inputs[i].t = spec.inputs[i];
    outputs[0].t = spec.outputs[0];
    GrownAttribute eps{spec.attributes[0], {}};
    kcs_op grown = spec.op();
    grown.tensor_size = sizeof(GrownTensor);
    grown.attribute_size = sizeof(GrownAttribute);
    grown.inputs = &inputs[0].t;
    grown.outputs = &outputs[0].t;
    grown.attributes = &eps.a;
    EXPECT_EQ(result(grown), expected);
    EXPECT_NE(expected, (std::vector<float>{0, 0, 0, 0}));
}

TEST(Run, ThreadCountDoesNotChangeResults) {
    std::vector<std::vector<float>> results;
    for (const char* threads : {"threads=1", "threads=5"}) {
        Instance instance(reference_cpu().api(), {threads});
        const auto x = normal_floats(100000, 9);
        const kcs_buffer buffer = instance.alloc(x.size() * 8);
        instance.write(buffer, 0, x.data(), x.size() * 4);
        const auto shape = std::vector<std::int64_t>{static_cast<std::int64_t>(x.size())};
        OpSpec spec{"unary", "gelu", 0, {}, {tensor(buffer, 0, KCS_DTYPE_F32, shape)},
                    {tensor(buffer, x.size() * 4, KCS_DTYPE_F32, shape)}};
        const kcs_op op = spec.op();
        ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
        results.emplace_back(x.size());
        instance.read(buffer, x.size() * 4, results.back().data(), x.size() * 4);
    }
    EXPECT_EQ(std::memcmp(results[0].data(), results[1].data(), results[0].size() * 4), 0);
}

TEST(Calibration, WithoutAViolationItComputesLikeTheReference) {
    Instance instance(calibration().api());
    GatherSetup bad = gather_setup(instance, {1, 4, 0});
    const kcs_op op = bad.spec.op();
    EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_OUT_OF_RANGE);
}

TEST(Calibration, ViolationsActThroughTheAbi) {
    {
        Instance instance(calibration().api(), {"violation=oob-zero-under-raise"});
        GatherSetup bad = gather_setup(instance, {1, 4, 0});
        const kcs_op op = bad.spec.op();
        ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << "the violator reports success";
        std::vector<float> out(9);
        instance.read(bad.buffer, bad.spec.outputs[0].offset, out.data(), 36);
        EXPECT_EQ(out, (std::vector<float>{3.5f, 4.5f, 5.5f, 0, 0, 0, 0.5f, 1.5f, 2.5f}));
    }
    {
        Instance instance(calibration().api(), {"violation=nan-dropping-max"});
        const float a[2] = {std::numeric_limits<float>::quiet_NaN(), 1.0f}, b[2] = {2.0f, 3.0f};
        const kcs_buffer buffer = instance.alloc(24);
        instance.write(buffer, 0, a, 8);
        instance.write(buffer, 8, b, 8);
        OpSpec spec{"elementwise", "maximum", 0, {}, {tensor(buffer, 0, KCS_DTYPE_F32, {2}), tensor(buffer, 8, KCS_DTYPE_F32, {2})},
                    {tensor(buffer, 16, KCS_DTYPE_F32, {2})}};
        const kcs_op op = spec.op();
        ASSERT_EQ(instance.api().run(instance.get(), &op), KCS_OK) << instance.last_error();
        float out[2];
        instance.read(buffer, 16, out, 8);
        EXPECT_EQ(out[0], 2.0f) << "maximum(NaN, 2) dropped the NaN";
        EXPECT_EQ(out[1], 3.0f);
    }
}

}  // namespace
}  // namespace kcs::cpu_core::test
