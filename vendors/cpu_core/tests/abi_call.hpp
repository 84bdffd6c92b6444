// Test support: one operator call through a loaded adapter's C ABI, its
// tensors in one buffer between guard bytes, the outputs poisoned with NaN,
// as the harness drives an adapter (the CPU library adapters' tests).
#pragma once

#include <kcs/adapter.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {

inline constexpr unsigned char kGuard = 0xC3;

// An op over tensors in one buffer, each between at least 12 guard bytes
// and aligned to 8 bytes, outputs poisoned with NaN; run() and supports()
// through the ABI.
class Call {
public:
    Call(Instance& instance, std::string name) : instance_(instance), spec_{std::move(name), "", 0, {}, {}, {}} {}

    // The function of unary and elementwise ("exp", "mul_add").
    void function(std::string name) { spec_.function = std::move(name); }
    void input(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<float>& values = {}) {
        spec_.inputs.push_back(place(dtype, shape, values));
    }
    // A 16-bit input (f16, bf16) given as its elements' bit patterns.
    void input_bits(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<std::uint16_t>& values) {
        kcs_tensor t = place(dtype, shape, {});
        std::memcpy(bytes_.data() + t.offset, values.data(), std::min(values.size(), count(t)) * 2);
        spec_.inputs.push_back(t);
    }
    // An index input (i32 or i64), given as its values.
    void input_indices(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& values) {
        kcs_tensor t = place(dtype, shape, {});
        for (std::size_t e = 0; e < std::min(values.size(), count(t)); ++e) {
            const std::int32_t narrow = static_cast<std::int32_t>(values[e]);
            std::memcpy(bytes_.data() + t.offset + e * element_size(dtype),
                        dtype == KCS_DTYPE_I32 ? static_cast<const void*>(&narrow) : &values[e], element_size(dtype));
        }
        spec_.inputs.push_back(t);
    }
    // A named attribute: a flag (KCS_ATTR_BOOL) or a number (KCS_ATTR_FLOAT).
    void flag(const char* name, bool value) { spec_.attributes.push_back({name, KCS_ATTR_BOOL, value, 0.0, nullptr}); }
    void number(const char* name, double value) {
        spec_.attributes.push_back({name, KCS_ATTR_FLOAT, 0, value, nullptr});
    }
    void output(kcs_dtype dtype, const std::vector<std::int64_t>& shape) {
        spec_.outputs.push_back(place(dtype, shape, {}));
    }
    kcs_status supports() {
        const kcs_op op = spec_.op();
        return instance_.api().supports(instance_.get(), &op);
    }
    kcs_status run() {
        const kcs_op op = bind();
        return instance_.api().run(instance_.get(), &op);
    }
    // Output i's floats; every byte outside the outputs (the inputs and the
    // guards) must be as it was written.
    std::vector<float> result(std::size_t i) {
        const std::vector<unsigned char> after = checked_bytes();
        const kcs_tensor& t = spec_.outputs[i];
        std::vector<float> out(count(t));
        std::memcpy(out.data(), after.data() + t.offset, out.size() * 4);
        return out;
    }
    // Output i's 16-bit elements (f16, bf16) as bit patterns, checked as result() does.
    std::vector<std::uint16_t> result_bits(std::size_t i) {
        const std::vector<unsigned char> after = checked_bytes();
        const kcs_tensor& t = spec_.outputs[i];
        std::vector<std::uint16_t> out(count(t));
        std::memcpy(out.data(), after.data() + t.offset, out.size() * 2);
        return out;
    }

private:
    static std::size_t count(const kcs_tensor& t) {
        std::size_t n = 1;
        for (std::uint32_t d = 0; d < t.rank; ++d) n *= static_cast<std::size_t>(t.shape[d]);
        return n;
    }
    static std::size_t element_size(kcs_dtype dtype) {
        return dtype == KCS_DTYPE_I64 ? 8 : dtype == KCS_DTYPE_F32 || dtype == KCS_DTYPE_I32 ? 4 : 2;
    }

    kcs_tensor place(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<float>& values) {
        bytes_.resize((bytes_.size() + 12 + 7) / 8 * 8, kGuard);  // at least 12 guard bytes, the tensor 8-byte aligned
        const kcs_tensor t = tensor(0, bytes_.size(), dtype, shape);
        const std::size_t size = count(t) * element_size(dtype);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (std::size_t e = 0; e < size / 4; ++e) {
            const float value = e < values.size() ? values[e] : nan;
            bytes_.resize(bytes_.size() + 4);
            std::memcpy(bytes_.data() + bytes_.size() - 4, &value, 4);
        }
        bytes_.resize(t.offset + size, kGuard);
        bytes_.resize(bytes_.size() + 12, kGuard);
        return t;
    }
    std::vector<unsigned char> checked_bytes() {
        std::vector<unsigned char> after(bytes_.size());
        instance_.read(buffer_, 0, after.data(), after.size());
        for (std::size_t b = 0; b < after.size(); ++b) {
            if (in_output(b)) continue;
            EXPECT_EQ(after[b], bytes_[b]) << "byte " << b << " outside the outputs was written";
        }
        return after;
    }
    kcs_op bind() {
        buffer_ = instance_.alloc(bytes_.size());
        instance_.write(buffer_, 0, bytes_.data(), bytes_.size());
        for (auto* list : {&spec_.inputs, &spec_.outputs})
            for (kcs_tensor& t : *list) t.buffer = buffer_;
        return spec_.op();
    }
    bool in_output(std::size_t byte) const {
        for (const kcs_tensor& t : spec_.outputs)
            if (byte >= t.offset && byte < t.offset + count(t) * element_size(t.dtype)) return true;
        return false;
    }

    Instance& instance_;
    OpSpec spec_;
    std::vector<unsigned char> bytes_;
    kcs_buffer buffer_ = 0;
};

// The notes an instance's info() reports (what the adapter says it computes with).
inline std::string notes_of(Instance& instance) {
    kcs_info info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(instance.api().info(instance.get(), &info), KCS_OK) << instance.last_error();
    return info.notes ? info.notes : "";
}

// Small whole numbers: every sum is exact in f32 in any order, so the
// library's result is known to the bit.
inline std::vector<float> whole_numbers(std::size_t n, int seed) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + seed * 3) % 11) - 5);
    return v;
}

}  // namespace kcs::cpu_core::test
