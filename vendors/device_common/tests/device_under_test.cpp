#include "device_under_test.hpp"

#include <cstring>

#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::cpu_core::test {

const DeviceUnderTest& device_under_test() {
    static LoadedAdapter adapter(KCS_DEVICE_ADAPTER);
    static const DeviceUnderTest device = [] {
        DeviceUnderTest d{adapter, {}, KCS_DEVICE_LABEL};
        if (*KCS_DEVICE_OPTION) d.options.push_back(KCS_DEVICE_OPTION);  // one option for every test, or ""
        return d;
    }();
    return device;
}

const std::optional<std::string>& no_device_reason() {
    static const std::optional<std::string> reason = []() -> std::optional<std::string> {
        const auto& api = device_under_test().adapter.api();
        std::vector<const char*> options;
        for (const std::string& option : device_under_test().options) options.push_back(option.c_str());
        kcs_adapter* adapter = nullptr;
        if (api.open(options.data(), static_cast<std::uint32_t>(options.size()), &adapter) == KCS_OK) {
            api.close(adapter);
            return std::nullopt;
        }
        return std::string(api.last_error(nullptr));
    }();
    return reason;
}

std::size_t element_size(kcs_dtype dtype) {
    switch (dtype) {
        case KCS_DTYPE_F32: case KCS_DTYPE_I32: return 4;
        case KCS_DTYPE_I64: return 8;
        default: return 2;
    }
}

std::size_t elements(const std::vector<std::int64_t>& shape) {
    std::size_t n = 1;
    for (const auto extent : shape) n *= static_cast<std::size_t>(extent);
    return n;
}

Bytes random_bits(std::size_t bytes, std::uint64_t seed) {
    ref::testing::SplitMix64 random(seed);
    Bytes out(bytes);
    for (auto& b : out) b = static_cast<unsigned char>(random.next());
    return out;
}

kcs_status run_on(const kcs_adapter_api& api, const std::vector<std::string>& options, const std::string& name,
                  const std::string& function, const std::vector<Operand>& inputs, std::vector<Operand>& outputs) {
    Instance instance(api, options);
    OpSpec spec{name, function, 0, {}, {}, {}};
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

namespace {

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

}  // namespace

void expect_bitwise_agreement(const std::string& name, const std::string& function, const std::vector<Operand>& inputs,
                              const Operand& output, bool nan_payloads_matter,
                              const std::vector<std::string>& extra_options) {
    const DeviceUnderTest& device = device_under_test();
    std::vector<std::string> options = device.options;
    options.insert(options.end(), extra_options.begin(), extra_options.end());
    std::vector<Operand> got{output}, want{output};
    const kcs_status got_status = run_on(device.adapter.api(), options, name, function, inputs, got);
    const kcs_status want_status = run_on(reference_cpu().api(), {}, name, function, inputs, want);
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
                          << operands << ": " << device.label << " " << hex(g, size) << ", reference-cpu "
                          << hex(w, size);
        }
    }
    EXPECT_EQ(mismatches, 0u) << name << " " << function;
}

}  // namespace kcs::cpu_core::test
