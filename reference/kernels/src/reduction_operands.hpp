// Reading the operands of the reducing kernels into f32 rows, the input
// coercions of the C-PRC-03 violations, and the NaN-propagating maximum.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "element_access.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/kernels.hpp"

namespace kcs::kernels::detail {

// elements [offset, offset + count) of a float tensor, as f32: the same
// values as load() element by element, converted in one batch where no
// flush applies (the exact conversions vectorise; a call per element was a
// tenth of attention's time on f16 inputs).
inline std::vector<float> load_row(const Tensor& tensor, std::int64_t offset, std::int64_t count,
                                   const Settings& settings) {
    std::vector<float> row(static_cast<std::size_t>(count));
    const auto n = static_cast<std::size_t>(count);
    if (!flushes_subnormals(settings)) {
        const char* bytes = static_cast<const char*>(tensor.data);
        switch (tensor.dtype) {
            case Dtype::f32: std::memcpy(row.data(), bytes + offset * 4, n * 4); return row;
            case Dtype::f16:
            case Dtype::bf16: {
                std::vector<std::uint16_t> half(n);
                std::memcpy(half.data(), bytes + offset * 2, n * 2);
                if (tensor.dtype == Dtype::f16) ref::f16_to_f32(half.data(), row.data(), n);
                else ref::bf16_to_f32(half.data(), row.data(), n);
                return row;
            }
            default: break;
        }
    }
    for (std::int64_t i = 0; i < count; ++i) row[static_cast<std::size_t>(i)] = load(tensor, offset + i, settings);
    return row;
}

// values stored into elements [offset, offset + values.size()) of a float
// tensor: the same bits as store() element by element, converted in one
// batch where no flush and no bf16 truncation applies (a call per element
// was a tenth of the norms' and softmax's time).
inline void store_row(const Tensor& tensor, std::int64_t offset, const std::vector<float>& values,
                      const Settings& settings) {
    const std::size_t n = values.size();
    if (!flushes_subnormals(settings) && settings.violation != Violation::bf16_truncate) {
        char* bytes = static_cast<char*>(tensor.data);
        switch (tensor.dtype) {
            case Dtype::f32: std::memcpy(bytes + offset * 4, values.data(), n * 4); return;
            case Dtype::f16:
            case Dtype::bf16: {
                std::vector<std::uint16_t> half(n);
                if (tensor.dtype == Dtype::f16) ref::f32_to_f16(values.data(), half.data(), n);
                else ref::f32_to_bf16(values.data(), half.data(), n);
                std::memcpy(bytes + offset * 2, half.data(), n * 2);
                return;
            }
            default: break;
        }
    }
    for (std::size_t i = 0; i < n; ++i) store(tensor, offset + static_cast<std::int64_t>(i), values[i], settings);
}

// value rounded to nearest even at 10 stored mantissa bits (TF32: f32's
// exponent range, so only the 13 low bits go). Infinities and NaNs pass;
// a carry out of the largest binade gives inf, as the rounding should.
inline float round_to_tf32(float value) {
    if (!std::isfinite(value)) return value;
    constexpr std::uint32_t kDropped = 13;
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t half_minus_one = (1u << (kDropped - 1)) - 1;
    const std::uint32_t odd = (bits >> kDropped) & 1u;  // ties go to the even neighbour
    const std::uint32_t rounded = (bits + half_minus_one + odd) & ~((1u << kDropped) - 1);
    return std::bit_cast<float>(rounded);
}

// The value a product sees of one element of a matmul or attention input.
// Conforming: the element itself. tf32_inputs and f16_coercion narrow f32
// inputs before multiplying, as tensor-core paths do; f16 and bf16 inputs
// already fit and are left alone.
inline float product_operand(float value, Dtype input_dtype, Violation violation) {
    if (input_dtype != Dtype::f32) return value;
    switch (violation) {
        case Violation::tf32_inputs: return round_to_tf32(value);
        case Violation::f16_coercion: return round_through(Dtype::f16, value);
        default: return value;
    }
}

// load_row() with product_operand() applied to every element.
inline std::vector<float> load_product_row(const Tensor& tensor, std::int64_t offset, std::int64_t count,
                                           const Settings& settings) {
    std::vector<float> row = load_row(tensor, offset, count, settings);
    for (float& value : row) value = product_operand(value, tensor.dtype, settings.violation);
    return row;
}

// IEEE 754-2019 maximum: a quiet NaN if either operand is NaN (the sum
// quiets a signalling one), otherwise the larger, with -0 below +0.
inline float ieee_maximum(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
    if (a == b) return std::signbit(a) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}

// The maximum of a row (-inf for an empty one); NaN as soon as one is met.
inline float row_maximum(std::span<const float> row) {
    float maximum = -std::numeric_limits<float>::infinity();
    for (const float value : row) {
        maximum = ieee_maximum(maximum, value);
        if (std::isnan(maximum)) break;
    }
    return maximum;
}

}  // namespace kcs::kernels::detail
