// A KCS matmul as one cuBLAS call (cublasGemmStridedBatchedEx), decided on
// the host from the request alone, so that every choice is unit-tested
// without a GPU: the row-major product C = A B is cuBLAS's column-major
// C^T = B^T A^T (B passed as cuBLAS's A), the data types, the compute type
// the math option selects, and the handle's math mode.
#pragma once

#include <cublas_v2.h>

#include <cstdint>
#include <string>

#include "op_request.hpp"
#include "options.hpp"

namespace kcs::cublas_adapter {

struct GemmPlan {
    // cuBLAS's column-major problem: rows, columns and depth of C^T, and
    // the leading dimensions of its first operand (KCS's B), its second
    // (KCS's A) and C, at least 1 as cuBLAS requires.
    int m = 0, n = 0, k = 0;
    int ld_first = 1, ld_second = 1, ld_c = 1;
    int batch = 1;
    long long stride_a = 0, stride_b = 0, stride_c = 0;  // elements between batch items (A, B as KCS names them)
    cudaDataType_t input_type = CUDA_R_32F, output_type = CUDA_R_32F;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    bool empty = false;  // C has no elements: nothing to launch
    // The alignment in bytes of each operand's address (KCS's A, B, C):
    // its buffer is cudaMalloc's, 256-byte aligned, so the largest power
    // of two up to 256 that divides the tensor's offset. cuBLASLt chooses
    // among the algorithms these allow.
    std::uint32_t align_a = 256, align_b = 256, align_c = 256;
};

// Throws AdapterFailure: KCS_UNSUPPORTED for what the adapter does not offer
// (another operator, a dtype configuration cuBLAS has no f32-accumulating
// GEMM for, extents beyond cuBLAS's int), KCS_INVALID_ARGUMENT for a
// malformed call.
GemmPlan plan_gemm(const device::Request& request, const Options& options);

// The handle's math mode for the options: the math option's mode, with
// CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION where
// reduced_precision_reduction=false.
cublasMath_t math_mode(const Options& options);

// "CUBLAS_COMPUTE_32F_FAST_TF32": the enumerator's name, for info() and messages.
std::string compute_name(cublasComputeType_t compute);

}  // namespace kcs::cublas_adapter
