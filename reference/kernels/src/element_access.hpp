// Reading and writing tensor elements as f32, the compute type of every
// kernel. Stores round to nearest even. The two violations that live in
// memory access are applied here, once for every operator: ftz_daz
// (subnormal inputs read as zero, subnormal results stored as zero) and
// bf16_truncate (bf16 stores drop the low bits instead of rounding).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "kcs/reference/kernels.hpp"

namespace kcs::kernels::detail {

// Element i (row-major, contiguous) of a float tensor (f32, f16, bf16).
float load(const Tensor& tensor, std::int64_t i, const Settings& settings);

// Stores value into element i, rounding to the tensor's dtype.
void store(const Tensor& tensor, std::int64_t i, float value, const Settings& settings);

// Integer element i of an index tensor (i32 or i64).
std::int64_t load_index(const Tensor& tensor, std::int64_t i);

bool is_float(Dtype dtype);  // f32, f16 or bf16

// Whether loads and stores flush subnormals to zero: the ftz_daz violation
// and the ftz conformer.
inline bool flushes_subnormals(const Settings& settings) {
    return settings.violation == Violation::ftz_daz || settings.conformer == Conformer::ftz;
}

// The settings a problem of these extents runs under: large_tile_ftz's
// kernel for problems with an extent of at least 32 (matmul's M, K or N, a
// row operator's row count or length) flushes as ftz_daz does, and
// vector_nan_dropping_max's drops NaN as nan_dropping_max does; their
// kernels for smaller ones conform.
Settings for_extents(const Settings& settings, std::initializer_list<std::int64_t> extents);

// Whether mul_add and the layernorm affine step fuse their a*b+c: the
// contracted_mul_add violation and the fma conformer.
inline bool fuses_mul_add(const Settings& settings) {
    return settings.violation == Violation::contracted_mul_add || settings.conformer == Conformer::fma;
}

// a * b + c rounded once to `out`, as a fused multiply-add of the output's
// precision computes it (for f32, fmaf; for f16 and bf16, the double fma
// rounded to them, whose one extra rounding lands on a midpoint of theirs
// only for values within 2^-53 of one).
float fused_multiply_add(float a, float b, float c, Dtype out);

// value rounded to f16 or bf16 and back (the value an f16/bf16 register
// would hold); f32 unchanged. For the narrow-accumulator violations.
float round_through(Dtype dtype, float value);

}  // namespace kcs::kernels::detail
