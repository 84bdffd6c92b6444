// The options of the cuBLAS adapter's open(), each one of cuBLAS's own
// modes (NVIDIA's cuBLAS documentation, "cublasSetMathMode()",
// "cublasSetAtomicsMode()", "cublasSetWorkspace()"):
//   device=N                             the CUDA device (default 0)
//   math=default|tf32|pedantic           CUBLAS_DEFAULT_MATH, CUBLAS_TF32_TENSOR_OP_MATH
//                                        or CUBLAS_PEDANTIC_MATH, and the compute type
//                                        that goes with it (CUBLAS_COMPUTE_32F,
//                                        _32F_FAST_TF32 for f32 inputs, _32F_PEDANTIC)
//   reduced_precision_reduction=true|false  false adds
//                                        CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION
//                                        (default true, cuBLAS's default)
//   atomics=allowed|not_allowed          cublasSetAtomicsMode (default not_allowed,
//                                        cuBLAS's default)
//   workspace=BYTES                      a workspace of that many bytes for the handle
//                                        (cublasSetWorkspace; default: cuBLAS's own)
#pragma once

#include <cstdint>
#include <optional>

namespace kcs::cublas_adapter {

enum class Math { standard, tf32, pedantic };

struct Options {
    std::optional<int> device;
    Math math = Math::standard;
    bool reduced_precision_reduction = true;
    bool atomics = false;
    std::optional<std::uint64_t> workspace;
};

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for an unknown key or a bad
// value, naming what is accepted.
Options parse_options(const char* const* options, std::uint32_t option_count);

const char* name_of(Math math);  // "default", "tf32", "pedantic"

}  // namespace kcs::cublas_adapter
