#include "element_access.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "kcs/reference/formats.hpp"

namespace kcs::kernels::detail {

namespace {

float flush_subnormal(float value) {
    return std::fpclassify(value) == FP_SUBNORMAL ? std::copysign(0.0f, value) : value;
}

template <typename T>
T read_raw(const Tensor& tensor, std::int64_t i) {
    T value;
    std::memcpy(&value, static_cast<const char*>(tensor.data) + i * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    return value;
}

template <typename T>
void write_raw(const Tensor& tensor, std::int64_t i, T value) {
    std::memcpy(static_cast<char*>(tensor.data) + i * static_cast<std::int64_t>(sizeof(T)), &value, sizeof(T));
}

}  // namespace

bool is_float(Dtype dtype) { return dtype == Dtype::f32 || dtype == Dtype::f16 || dtype == Dtype::bf16; }

float load(const Tensor& tensor, std::int64_t i, const Settings& settings) {
    float value = 0;
    switch (tensor.dtype) {
        case Dtype::f32: value = read_raw<float>(tensor, i); break;
        case Dtype::f16: value = ref::f16_to_f32(read_raw<std::uint16_t>(tensor, i)); break;
        case Dtype::bf16: value = ref::bf16_to_f32(read_raw<std::uint16_t>(tensor, i)); break;
        default: return 0;  // check() admits float tensors only here
    }
    // f16 subnormals are normal f32 values: flush by the stored format.
    if (flushes_subnormals(settings)) {
        if (tensor.dtype == Dtype::f16) {
            const auto bits = read_raw<std::uint16_t>(tensor, i);
            if ((bits & 0x7C00) == 0 && (bits & 0x03FF) != 0) return std::copysign(0.0f, value);
        }
        return flush_subnormal(value);
    }
    return value;
}

void store(const Tensor& tensor, std::int64_t i, float value, const Settings& settings) {
    const bool ftz = flushes_subnormals(settings);
    switch (tensor.dtype) {
        case Dtype::f32: write_raw<float>(tensor, i, ftz ? flush_subnormal(value) : value); return;
        case Dtype::f16: {
            std::uint16_t bits = ref::f32_to_f16(value);
            if (ftz && (bits & 0x7C00) == 0) bits &= 0x8000;  // subnormal result -> signed zero
            write_raw<std::uint16_t>(tensor, i, bits);
            return;
        }
        case Dtype::bf16: {
            const auto rounding = settings.violation == Violation::bf16_truncate ? ref::Rounding::truncate
                                                                                 : ref::Rounding::nearest_even;
            std::uint16_t bits = ref::f32_to_bf16(value, rounding);
            if (ftz && (bits & 0x7F80) == 0) bits &= 0x8000;
            write_raw<std::uint16_t>(tensor, i, bits);
            return;
        }
        default: return;
    }
}

std::int64_t load_index(const Tensor& tensor, std::int64_t i) {
    return tensor.dtype == Dtype::i32 ? read_raw<std::int32_t>(tensor, i) : read_raw<std::int64_t>(tensor, i);
}

float fused_multiply_add(float a, float b, float c, Dtype out) {
    if (out != Dtype::f16 && out != Dtype::bf16) return std::fma(a, b, c);
    const double fused = std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c));
    return static_cast<float>(ref::round_to(out == Dtype::f16 ? ref::Format::f16 : ref::Format::bf16, fused));
}

float round_through(Dtype dtype, float value) {
    switch (dtype) {
        case Dtype::f16: return ref::f16_to_f32(ref::f32_to_f16(value));
        case Dtype::bf16: return ref::bf16_to_f32(ref::f32_to_bf16(value));
        default: return value;
    }
}

Settings for_extents(const Settings& settings, std::initializer_list<std::int64_t> extents) {
    constexpr std::int64_t kLargeTile = 32;
    Settings out = settings;
    const bool large = std::max(extents) >= kLargeTile;
    if (settings.violation == Violation::large_tile_ftz) out.violation = large ? Violation::ftz_daz : Violation::none;
    if (settings.violation == Violation::vector_nan_dropping_max)
        out.violation = large ? Violation::nan_dropping_max : Violation::none;
    return out;
}

}  // namespace kcs::kernels::detail
