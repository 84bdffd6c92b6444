// XNNPACK's f16 fully connected keeps its running sum in f16, alone: the
// reason the xnnpack adapter declines matmul f16 x f16 -> f16 (the
// catalog's f16 matmul accumulates in f32) unless f16_matmul=offer.
// A row of 4096 ones times a column of 4096 ones is 4096, exact in f16; a
// sum rounded to f16 after every step stops at 2048, where 2048 + 1 is
// halfway to the next f16 (2050) and rounds to even, 2048. The x86
// micro-kernel (src/f16-gemm/gen/4x16-minmax-avx2-broadcast.c and its 1x16
// sibling) converts the accumulator back to f16 after every
// _mm256_fmadd_ps (_mm256_cvtps_ph, then _mm256_cvtph_ps).
// (C-PRC-01 and C-ORD-01 matmul f16xf16-f16, with f16_matmul=offer)
// Usage: f16_accumulation. Exit 0: the sum stops at 2048 (seen); 1: it
// reaches 4096; 2: an XNNPACK error.
#include "repro.hpp"

int main() {
    repro::init();
    const std::size_t k = 4096;
    const std::vector<std::uint16_t> ones(k, 0x3c00);
    const std::uint16_t c = repro::matmul_f16(ones, ones, 1, k, 1)[0];
    const float f32 = repro::matmul_f32(std::vector<float>(k, 1.0f), std::vector<float>(k, 1.0f), 1, k, 1)[0];
    std::printf("f16 fully connected, 1 x %zu x 1 of ones: 0x%04x = %g (exact: 4096; f32 fully connected: %g)\n", k, c,
                repro::half_value(c), f32);
    return repro::verdict(repro::half_value(c) == 2048.0f, "the f16 fully connected accumulates in f16");
}
