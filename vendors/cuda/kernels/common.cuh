// Shared by every module of the CUDA adapter: element access for the
// storage dtypes and the block reductions. A module is this file and one
// family's file, compiled at run time by NVRTC (src/modules.cpp), whose
// kernels are templates over the input and output types, instantiated for
// the configurations the family serves: kcs::softmax<__half, float>.
//
// Every value is computed in f32: f16 and bf16 are loaded and stored
// through CUDA's own types (cuda_fp16.h, cuda_bf16.h), converting with
// round to nearest even. The adapter builds with -fmad=false unless its
// fmad or fast_math option says otherwise, so a * b + c is two roundings
// here (claim fp_contract: off); fmaf, where written, is meant.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <math_constants.h>  // CUDART_INF_F

namespace kcs {

using index_t = unsigned long long;

__device__ inline float load(const float* p, index_t i) { return p[i]; }
__device__ inline float load(const __half* p, index_t i) { return __half2float(p[i]); }
__device__ inline float load(const __nv_bfloat16* p, index_t i) { return __bfloat162float(p[i]); }

__device__ inline void store(float* p, index_t i, float value) { p[i] = value; }
__device__ inline void store(__half* p, index_t i, float value) { p[i] = __float2half_rn(value); }
__device__ inline void store(__nv_bfloat16* p, index_t i, float value) { p[i] = __float2bfloat16_rn(value); }

// value rounded to T and widened back: what a register of T would hold.
template <typename T>
__device__ inline float round_to(float value) {
    T stored;
    store(&stored, 0, value);
    return load(&stored, 0);
}

// The IEEE 754-2019 maximum, for reduce_max, softmax, attention and
// elementwise maximum: NaN if either operand is NaN (a + b quiets a
// signalling one), otherwise the larger, with -0 below +0. Not fmaxf,
// which is IEEE 754-2008 maxNum and returns the other operand of a NaN.
__device__ inline float maximum(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}

// The sums start from -0, the identity of IEEE addition: a row of -0 sums
// to -0, and a thread with no elements changes nothing.
constexpr float kSumIdentity = -0.0f;

// The sum (or maximum) of every thread's value over the block, combined
// pairwise in a fixed tree (the block size is a power of two) in the
// dynamic shared memory `scratch`, so the result depends on the values and
// the block size only. Every thread gets it.
template <typename Combine>
__device__ inline float block_reduce(float value, float* scratch, Combine combine) {
    const unsigned lid = threadIdx.x;
    scratch[lid] = value;
    __syncthreads();
    for (unsigned half_size = blockDim.x / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size) scratch[lid] = combine(scratch[lid], scratch[lid + half_size]);
        __syncthreads();
    }
    const float result = scratch[0];
    __syncthreads();
    return result;
}

__device__ inline float block_sum(float value, float* scratch) {
    return block_reduce(value, scratch, [](float a, float b) { return a + b; });
}
__device__ inline float block_max(float value, float* scratch) {
    return block_reduce(value, scratch, [](float a, float b) { return maximum(a, b); });
}

// The one-element-per-thread kernels' element.
__device__ inline index_t global_index() { return blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; }

}  // namespace kcs
