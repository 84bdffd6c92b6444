#include "gemm.hpp"

#include <algorithm>
#include <limits>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"

namespace kcs::cublas_adapter {

namespace {

cudaDataType_t type_of(Dtype dtype) {
    switch (dtype) {
        case Dtype::f32: return CUDA_R_32F;
        case Dtype::f16: return CUDA_R_16F;
        case Dtype::bf16: return CUDA_R_16BF;
        default: device::unsupported(std::string("cuBLAS's GEMM takes f32, f16 and bf16, not ") + name_of(dtype));
    }
}

int fits_int(std::uint64_t extent, const char* what) {
    if (extent > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        device::unsupported(std::string("matmul: ") + what + " " + std::to_string(extent) +
                            " exceeds cuBLAS's int extents");
    return static_cast<int>(extent);
}

// The largest power of two up to 256 that divides `offset` (256 for 0).
std::uint32_t alignment_of(std::uint64_t offset) {
    std::uint32_t alignment = 256;
    while (offset % alignment != 0) alignment /= 2;
    return alignment;
}

}  // namespace

GemmPlan plan_gemm(const device::Request& request, const Options& options) {
    if (request.name != "matmul") device::unsupported(request.name + ": the cuBLAS adapter computes matmul alone");
    // f32 -> f32, f16 and bf16 -> their own dtype or f32: every one a GEMM
    // with f32 accumulation (cublasGemmEx's table of supported types).
    device::check_matmul(request);
    device::check_contiguous(request);
    const device::MatmulExtents e = device::matmul_extents(request);
    GemmPlan plan;
    plan.m = fits_int(e.n, "N");  // C^T [n x m] = B^T [n x k] A^T [k x m]
    plan.n = fits_int(e.m, "M");
    plan.k = fits_int(e.k, "K");
    plan.batch = fits_int(e.batch, "the batch");
    plan.ld_first = std::max(plan.m, 1);  // B [k, n] row-major: column-major [n, k]
    plan.ld_second = std::max(plan.k, 1); // A [m, k] row-major: column-major [k, m]
    plan.ld_c = std::max(plan.m, 1);
    plan.stride_a = static_cast<long long>(e.m * e.k);
    plan.stride_b = static_cast<long long>(e.k * e.n);
    plan.stride_c = static_cast<long long>(e.m * e.n);
    plan.input_type = type_of(request.inputs[0].dtype);
    plan.output_type = type_of(request.outputs[0].dtype);
    const bool f32_inputs = request.inputs[0].dtype == Dtype::f32;
    switch (options.math) {
        case Math::tf32: plan.compute = f32_inputs ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
        case Math::pedantic: plan.compute = CUBLAS_COMPUTE_32F_PEDANTIC; break;
        default: plan.compute = CUBLAS_COMPUTE_32F;
    }
    plan.empty = e.batch == 0 || e.m == 0 || e.n == 0;
    plan.align_a = alignment_of(request.inputs[0].offset);
    plan.align_b = alignment_of(request.inputs[1].offset);
    plan.align_c = alignment_of(request.outputs[0].offset);
    return plan;
}

cublasMath_t math_mode(const Options& options) {
    const cublasMath_t base = options.math == Math::tf32       ? CUBLAS_TF32_TENSOR_OP_MATH
                              : options.math == Math::pedantic ? CUBLAS_PEDANTIC_MATH
                                                               : CUBLAS_DEFAULT_MATH;
    return options.reduced_precision_reduction
               ? base
               : static_cast<cublasMath_t>(base | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
}

std::string compute_name(cublasComputeType_t compute) {
    switch (compute) {
        case CUBLAS_COMPUTE_32F: return "CUBLAS_COMPUTE_32F";
        case CUBLAS_COMPUTE_32F_FAST_TF32: return "CUBLAS_COMPUTE_32F_FAST_TF32";
        case CUBLAS_COMPUTE_32F_PEDANTIC: return "CUBLAS_COMPUTE_32F_PEDANTIC";
        default: return "cublasComputeType_t " + std::to_string(static_cast<int>(compute));
    }
}

}  // namespace kcs::cublas_adapter
