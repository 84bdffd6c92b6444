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
//                                        (cublasSetWorkspace; default: cuBLAS's own), or
//                                        for cublasLtMatmul (default 32 MiB)
//   api=cublas|cublaslt                  the GEMM call: cublasGemmStridedBatchedEx
//                                        (default), or cublasLtMatmul with the
//                                        algorithm cuBLASLt's heuristic offers
//                                        (NVIDIA's cuBLAS documentation, "Using the
//                                        cuBLASLt API"); the handle's modes
//                                        (reduced_precision_reduction, atomics) are
//                                        cuBLAS's and are refused with it
//   algorithm=N                          cublaslt: the N-th of the heuristic's results
//                                        (cublasLtMatmulAlgoGetHeuristic), default 0
//   split_k=N                            cublaslt: the algorithm split along K into N
//                                        parts (CUBLASLT_ALGO_CONFIG_SPLITK_NUM), the
//                                        parts summed in the compute type
//                                        (CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE);
//                                        default: the heuristic's own configuration
#pragma once

#include <cstdint>
#include <optional>

namespace kcs::cublas_adapter {

enum class Math { standard, tf32, pedantic };
enum class Api { cublas, cublaslt };

inline constexpr std::uint64_t kDefaultLtWorkspace = 32u << 20;
inline constexpr int kMaxSplitK = 1024;

struct Options {
    std::optional<int> device;
    Math math = Math::standard;
    bool reduced_precision_reduction = true;
    bool atomics = false;
    std::optional<std::uint64_t> workspace;
    Api api = Api::cublas;
    int algorithm = 0;
    std::optional<int> split_k;
};

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for an unknown key or a bad
// value, naming what is accepted.
Options parse_options(const char* const* options, std::uint32_t option_count);

const char* name_of(Math math);  // "default", "tf32", "pedantic"
const char* name_of(Api api);    // "cublas", "cublaslt"

}  // namespace kcs::cublas_adapter
