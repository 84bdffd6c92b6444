// The fast f32 <-> f16/bf16 entry points: scalar and batch forms over the
// kernels of f32_half_kernels.hpp.
#include <bit>
#include <cstring>
#include <stdexcept>

#include "f32_half_kernels.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

// The f32 -> f16 kernel shifts by a per-element amount (subnormal results),
// which x86-64's baseline SSE2 cannot vectorise; AVX2 can (vpsrlvd), and
// its wider vectors speed up the other loops as well. So on x86-64 the batch
// loops are also compiled for AVX2 and the loader picks the variant the CPU
// supports. Same integer code, same bits: only the speed differs.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KCS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KCS_VECTOR_CLONES
#endif

template <auto Kernel>
[[gnu::always_inline]] inline void convert_batch(const float* in, std::uint16_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, in + i, sizeof bits);  // the encoding, sNaN included, never a float operation
        out[i] = Kernel(bits);
    }
}

[[noreturn]] void unknown_rounding() { throw std::invalid_argument("kcs::ref: unknown Rounding value"); }

}  // namespace

std::uint16_t f32_to_f16(float value, Rounding rounding) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    switch (rounding) {
        case Rounding::nearest_even: return kernels::f32_bits_to_f16<Rounding::nearest_even>(bits);
        case Rounding::toward_zero: return kernels::f32_bits_to_f16<Rounding::toward_zero>(bits);
        case Rounding::nearest_away: return kernels::f32_bits_to_f16<Rounding::nearest_away>(bits);
        case Rounding::truncate: return kernels::f32_bits_to_f16<Rounding::truncate>(bits);
    }
    unknown_rounding();
}

std::uint16_t f32_to_bf16(float value, Rounding rounding) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    switch (rounding) {
        case Rounding::nearest_even: return kernels::f32_bits_to_bf16<Rounding::nearest_even>(bits);
        case Rounding::toward_zero: return kernels::f32_bits_to_bf16<Rounding::toward_zero>(bits);
        case Rounding::nearest_away: return kernels::f32_bits_to_bf16<Rounding::nearest_away>(bits);
        case Rounding::truncate: return kernels::f32_bits_to_bf16<Rounding::truncate>(bits);
    }
    unknown_rounding();
}

float f16_to_f32(std::uint16_t bits) { return std::bit_cast<float>(kernels::f16_bits_to_f32(bits)); }
float bf16_to_f32(std::uint16_t bits) { return std::bit_cast<float>(kernels::bf16_bits_to_f32(bits)); }

KCS_VECTOR_CLONES void f32_to_f16(const float* in, std::uint16_t* out, std::size_t n, Rounding rounding) {
    using kernels::f32_bits_to_f16;
    switch (rounding) {
        case Rounding::nearest_even:
            return convert_batch<f32_bits_to_f16<Rounding::nearest_even>>(in, out, n);
        case Rounding::toward_zero:
            return convert_batch<f32_bits_to_f16<Rounding::toward_zero>>(in, out, n);
        case Rounding::nearest_away:
            return convert_batch<f32_bits_to_f16<Rounding::nearest_away>>(in, out, n);
        case Rounding::truncate:
            return convert_batch<f32_bits_to_f16<Rounding::truncate>>(in, out, n);
    }
    unknown_rounding();
}

KCS_VECTOR_CLONES void f32_to_bf16(const float* in, std::uint16_t* out, std::size_t n, Rounding rounding) {
    using kernels::f32_bits_to_bf16;
    switch (rounding) {
        case Rounding::nearest_even:
            return convert_batch<f32_bits_to_bf16<Rounding::nearest_even>>(in, out, n);
        case Rounding::toward_zero:
            return convert_batch<f32_bits_to_bf16<Rounding::toward_zero>>(in, out, n);
        case Rounding::nearest_away:
            return convert_batch<f32_bits_to_bf16<Rounding::nearest_away>>(in, out, n);
        case Rounding::truncate:
            return convert_batch<f32_bits_to_bf16<Rounding::truncate>>(in, out, n);
    }
    unknown_rounding();
}

KCS_VECTOR_CLONES void f16_to_f32(const std::uint16_t* in, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t bits = kernels::f16_bits_to_f32(in[i]);
        std::memcpy(out + i, &bits, sizeof bits);
    }
}

KCS_VECTOR_CLONES void bf16_to_f32(const std::uint16_t* in, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t bits = kernels::bf16_bits_to_f32(in[i]);
        std::memcpy(out + i, &bits, sizeof bits);
    }
}

}  // namespace kcs::ref
