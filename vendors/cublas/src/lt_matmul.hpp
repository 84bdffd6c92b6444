// A GemmPlan (gemm.hpp) as one cublasLtMatmul (NVIDIA's cuBLAS
// documentation, "Using the cuBLASLt API"): the operation and the three
// matrix layouts, which are host objects built and unit-tested without a
// GPU; and, on the device, the algorithm: the N-th result of cuBLASLt's
// heuristic (option algorithm=N), split along K where split_k=N asks, and
// checked by cublasLtMatmulAlgoCheck.
#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <memory>
#include <string>

#include "gemm.hpp"
#include "options.hpp"

namespace kcs::cublas_adapter {

struct LtDeleter {
    void operator()(cublasLtMatmulDescOpaque_t* desc) const { cublasLtMatmulDescDestroy(desc); }
    void operator()(cublasLtMatrixLayoutOpaque_t* layout) const { cublasLtMatrixLayoutDestroy(layout); }
    void operator()(cublasLtMatmulPreferenceOpaque_t* preference) const { cublasLtMatmulPreferenceDestroy(preference); }
    void operator()(cublasLtContext* handle) const { cublasLtDestroy(handle); }
};
using LtMatmulDesc = std::unique_ptr<cublasLtMatmulDescOpaque_t, LtDeleter>;
using LtLayout = std::unique_ptr<cublasLtMatrixLayoutOpaque_t, LtDeleter>;
using LtHandle = std::unique_ptr<cublasLtContext, LtDeleter>;

// C^T = B^T A^T as cuBLASLt sees it: `first`, cublasLtMatmul's A, is
// KCS's B and `second`, its B, is KCS's A (column-major, as in GemmPlan);
// C is also the output D. f32 scale, the plan's compute type, and each
// matrix's batch count and stride.
struct LtProblem {
    LtMatmulDesc operation;
    LtLayout first, second, c;
};
LtProblem lt_problem(const GemmPlan& plan);

struct LtAlgorithm {
    cublasLtMatmulAlgo_t algo{};
    std::size_t workspace = 0;  // what it needs, at most the instance's
    int id = 0;                 // CUBLASLT_ALGO_CONFIG_ID
    int split_k = 1;            // CUBLASLT_ALGO_CONFIG_SPLITK_NUM
    int offered = 0;            // how many results the heuristic returned
};

// The algorithm the options choose for the plan's problem, within
// `workspace` bytes, among those the plan's operand alignments allow. Throws AdapterFailure: KCS_UNSUPPORTED when the heuristic offers
// no result (or fewer than algorithm=N + 1), when split_k=N asks to split
// an algorithm that cannot be, or when cublasLtMatmulAlgoCheck refuses the
// configuration.
LtAlgorithm choose_algorithm(cublasLtHandle_t handle, const GemmPlan& plan, const LtProblem& problem,
                             const Options& options, std::size_t workspace);

// The search preferences for the plan: the workspace limit, and each
// operand's alignment (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_*_BYTES, whose
// default, 256, would let cuBLASLt choose an algorithm that assumes more
// than a tensor at an offset has). A host object: unit-tested without a GPU.
using LtPreference = std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, LtDeleter>;
LtPreference lt_preference(const GemmPlan& plan, std::size_t workspace);

// "algorithm 3 (of 8 offered), split_k 4": for messages.
std::string describe(const LtAlgorithm& algorithm);

}  // namespace kcs::cublas_adapter
