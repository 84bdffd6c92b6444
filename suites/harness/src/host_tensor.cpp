// HostTensor and the per-dtype facts of the integrity protocol: element
// sizes, names and poison patterns (SPEC.md section 7, rule 2).
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include <kcs/dtypes.hpp>

#include "kcs/harness/guarded_device.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/number_text.hpp"

namespace kcs::harness {

static_assert(std::endian::native == std::endian::little, "HostTensor stores little-endian elements");

namespace {

bool is_integer_dtype(kcs_dtype dtype) {
    const auto d = dtype_of_code(dtype);
    return d && !facts(*d).is_float;
}

// The signed value of `bits` as a two's-complement integer of `bytes` bytes.
std::int64_t sign_extend(std::uint64_t bits, std::size_t bytes) {
    const unsigned shift = 64 - 8 * static_cast<unsigned>(bytes);
    return static_cast<std::int64_t>(bits << shift) >> shift;
}

// The integer a value stands for, refused when it is not one of the dtype's.
std::uint64_t integer_bits(kcs_dtype dtype, double value) {
    double low = 0, high = 0;  // the dtype's range, exactly representable bounds
    switch (dtype) {
        case KCS_DTYPE_I8: low = -128, high = 127; break;
        case KCS_DTYPE_U8: low = 0, high = 255; break;
        case KCS_DTYPE_I32: low = -0x1p31, high = 0x1p31 - 1; break;
        // 2^63 - 1 is not a double: the largest i64 a double holds is 2^63 - 1024.
        default: low = -0x1p63, high = 0x1p63 - 1024; break;
    }
    if (!(value >= low && value <= high) || std::trunc(value) != value)
        throw std::invalid_argument("HostTensor::set_value: " + ref::number_text(value) + " is not a " +
                                    dtype_name(dtype) + " value");
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(value));
}

// One element's bits, little-endian as HostTensor stores them, with a
// fixed-size copy per size (these run per element in probes and oracles).
std::uint64_t load_element(const std::byte* at, std::size_t size) {
    switch (size) {
        case 1: return std::to_integer<std::uint64_t>(*at);
        case 2: { std::uint16_t v; std::memcpy(&v, at, 2); return v; }
        case 4: { std::uint32_t v; std::memcpy(&v, at, 4); return v; }
        default: { std::uint64_t v; std::memcpy(&v, at, 8); return v; }
    }
}

void store_element(std::byte* at, std::size_t size, std::uint64_t value) {
    switch (size) {
        case 1: *at = static_cast<std::byte>(value); return;
        case 2: { const auto v = static_cast<std::uint16_t>(value); std::memcpy(at, &v, 2); return; }
        case 4: { const auto v = static_cast<std::uint32_t>(value); std::memcpy(at, &v, 4); return; }
        default: std::memcpy(at, &value, 8); return;
    }
}

}  // namespace

void throw_unknown_dtype(kcs_dtype dtype) { throw std::invalid_argument("unknown dtype " + std::to_string(dtype)); }

std::string dtype_name(kcs_dtype dtype) {
    const auto d = dtype_of_code(dtype);
    return d ? name_of(*d) : "dtype " + std::to_string(dtype);
}

std::uint64_t poison_bits(kcs_dtype dtype, PoisonPattern pattern) {
    const bool first = pattern == PoisonPattern::first;
    switch (dtype) {
        case KCS_DTYPE_F32: return first ? 0x7FA5A5A5u : 0x7F9A5A5Au;
        case KCS_DTYPE_F16: return first ? 0x7D5Au : 0x7CA5u;
        case KCS_DTYPE_BF16: return first ? 0x7FA5u : 0x7F9Au;
        case KCS_DTYPE_F64: return first ? 0x7FF4A5A5A5A5A5A5u : 0x7FF25A5A5A5A5A5Au;
        case KCS_DTYPE_I8:
        case KCS_DTYPE_U8: return first ? 0xA5u : 0x5Au;
        case KCS_DTYPE_I32: return first ? 0xA5A5A5A5u : 0x5A5A5A5Au;
        case KCS_DTYPE_I64: return first ? 0xA5A5A5A5A5A5A5A5u : 0x5A5A5A5A5A5A5A5Au;
    }
    throw std::invalid_argument("unknown dtype " + std::to_string(dtype));
}

std::size_t element_count(const std::vector<std::int64_t>& shape) {
    std::size_t count = 1;
    for (const std::int64_t extent : shape) {
        if (extent < 0) throw std::invalid_argument("negative extent " + std::to_string(extent) + " in a shape");
        count *= static_cast<std::size_t>(extent);
    }
    return count;
}

HostTensor HostTensor::zeros(kcs_dtype dtype, std::vector<std::int64_t> shape) {
    HostTensor t;
    t.dtype = dtype;
    t.bytes.assign(element_count(shape) * dtype_size(dtype), std::byte{0});
    t.shape = std::move(shape);
    return t;
}

std::size_t HostTensor::elements() const { return element_count(shape); }

std::uint64_t HostTensor::bits(std::size_t i) const {
    const std::size_t size = dtype_size(dtype);
    if ((i + 1) * size > bytes.size())
        throw std::out_of_range("HostTensor::bits: element " + std::to_string(i) + " of " +
                                std::to_string(bytes.size() / size));
    return load_element(bytes.data() + i * size, size);
}

void HostTensor::set_bits(std::size_t i, std::uint64_t value) {
    const std::size_t size = dtype_size(dtype);
    if ((i + 1) * size > bytes.size())
        throw std::out_of_range("HostTensor::set_bits: element " + std::to_string(i) + " of " +
                                std::to_string(bytes.size() / size));
    store_element(bytes.data() + i * size, size, value);
}

template <class Bits>
void HostTensor::set_all_bits(std::span<const Bits> all) {
    const std::size_t size = dtype_size(dtype);
    if (all.size() != elements())
        throw std::invalid_argument("HostTensor::set_all_bits: " + std::to_string(all.size()) + " values for " +
                                    std::to_string(elements()) + " elements");
    std::byte* at = bytes.data();
    // The width chosen once, not per element.
    const auto store = [&]<class Word>(Word) {
        for (const Bits b : all) {
            const auto v = static_cast<Word>(b);
            std::memcpy(at, &v, sizeof v);
            at += sizeof v;
        }
    };
    switch (size) {
        case 1: store(std::uint8_t{}); return;
        case 2: store(std::uint16_t{}); return;
        case 4: store(std::uint32_t{}); return;
        default: store(std::uint64_t{}); return;
    }
}
template void HostTensor::set_all_bits(std::span<const std::uint32_t>);
template void HostTensor::set_all_bits(std::span<const std::uint64_t>);
template void HostTensor::set_all_bits(std::span<const std::int64_t>);

double HostTensor::value(std::size_t i) const {
    const std::uint64_t raw = bits(i);
    switch (dtype) {
        case KCS_DTYPE_F32: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)));
        case KCS_DTYPE_F16: return ref::decode(ref::Format::f16, static_cast<std::uint32_t>(raw));
        case KCS_DTYPE_BF16: return ref::decode(ref::Format::bf16, static_cast<std::uint32_t>(raw));
        case KCS_DTYPE_F64: return std::bit_cast<double>(raw);
        case KCS_DTYPE_U8: return static_cast<double>(raw);
        default: return static_cast<double>(sign_extend(raw, dtype_size(dtype)));
    }
}

void HostTensor::set_value(std::size_t i, double value) {
    switch (dtype) {
        case KCS_DTYPE_F32: set_bits(i, ref::encode(ref::Format::f32, value)); return;
        case KCS_DTYPE_F16: set_bits(i, ref::encode(ref::Format::f16, value)); return;
        case KCS_DTYPE_BF16: set_bits(i, ref::encode(ref::Format::bf16, value)); return;
        case KCS_DTYPE_F64: set_bits(i, std::bit_cast<std::uint64_t>(value)); return;
        default:
            if (!is_integer_dtype(dtype)) throw std::invalid_argument("unknown dtype " + std::to_string(dtype));
            set_bits(i, integer_bits(dtype, value));
    }
}

}  // namespace kcs::harness
