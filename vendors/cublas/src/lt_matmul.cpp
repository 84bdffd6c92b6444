#include "lt_matmul.hpp"

#include <cstdint>
#include <vector>

#include "adapter_failure.hpp"
#include "cublas_status.hpp"

namespace kcs::cublas_adapter {

namespace {

template <typename T>
void set_layout(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attribute, T value) {
    check_cublas(cublasLtMatrixLayoutSetAttribute(layout, attribute, &value, sizeof value),
                 "cublasLtMatrixLayoutSetAttribute");
}

LtLayout layout(cudaDataType_t type, int rows, int columns, int ld, int batch, long long stride) {
    cublasLtMatrixLayout_t created = nullptr;
    check_cublas(cublasLtMatrixLayoutCreate(&created, type, static_cast<std::uint64_t>(rows),
                                            static_cast<std::uint64_t>(columns), ld),
                 "cublasLtMatrixLayoutCreate");
    LtLayout owned(created);
    set_layout(created, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, std::int32_t{batch});
    set_layout(created, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, std::int64_t{stride});
    return owned;
}

template <typename T>
void set_config(cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute, T value) {
    check_cublas(cublasLtMatmulAlgoConfigSetAttribute(&algo, attribute, &value, sizeof value),
                 "cublasLtMatmulAlgoConfigSetAttribute");
}

template <typename T>
T config(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
    T value{};
    std::size_t written = 0;
    check_cublas(cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof value, &written),
                 "cublasLtMatmulAlgoConfigGetAttribute");
    return value;
}

}  // namespace

LtProblem lt_problem(const GemmPlan& plan) {
    LtProblem problem;
    cublasLtMatmulDesc_t operation = nullptr;
    check_cublas(cublasLtMatmulDescCreate(&operation, plan.compute, CUDA_R_32F), "cublasLtMatmulDescCreate");
    problem.operation.reset(operation);
    problem.first = layout(plan.input_type, plan.m, plan.k, plan.ld_first, plan.batch, plan.stride_b);
    problem.second = layout(plan.input_type, plan.k, plan.n, plan.ld_second, plan.batch, plan.stride_a);
    problem.c = layout(plan.output_type, plan.m, plan.n, plan.ld_c, plan.batch, plan.stride_c);
    return problem;
}

LtPreference lt_preference(const GemmPlan& plan, std::size_t workspace) {
    cublasLtMatmulPreference_t raw = nullptr;
    check_cublas(cublasLtMatmulPreferenceCreate(&raw), "cublasLtMatmulPreferenceCreate");
    LtPreference preference(raw);
    const auto set = [raw](cublasLtMatmulPreferenceAttributes_t attribute, auto value) {
        check_cublas(cublasLtMatmulPreferenceSetAttribute(raw, attribute, &value, sizeof value),
                     "cublasLtMatmulPreferenceSetAttribute");
    };
    set(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, std::uint64_t{workspace});
    // cublasLtMatmul's A is KCS's B, its B KCS's A; C and D are KCS's C.
    set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, std::uint32_t{plan.align_b});
    set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, std::uint32_t{plan.align_a});
    set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, std::uint32_t{plan.align_c});
    set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, std::uint32_t{plan.align_c});
    return preference;
}

LtAlgorithm choose_algorithm(cublasLtHandle_t handle, const GemmPlan& plan, const LtProblem& problem,
                             const Options& options, std::size_t workspace) {
    const LtPreference preference = lt_preference(plan, workspace);

    std::vector<cublasLtMatmulHeuristicResult_t> results(static_cast<std::size_t>(options.algorithm) + 1);
    int offered = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
        handle, problem.operation.get(), problem.first.get(), problem.second.get(), problem.c.get(),
        problem.c.get(), preference.get(), static_cast<int>(results.size()), results.data(), &offered);
    if (status != CUBLAS_STATUS_SUCCESS || offered == 0)
        device::unsupported(std::string("cublasLtMatmulAlgoGetHeuristic offers no algorithm for this matmul (") +
                            cublasGetStatusName(status) + ")");
    if (offered <= options.algorithm)
        device::unsupported("algorithm=" + std::to_string(options.algorithm) + ": cuBLASLt's heuristic offers " +
                            std::to_string(offered) + " algorithm(s) for this matmul");

    LtAlgorithm chosen;
    chosen.algo = results[static_cast<std::size_t>(options.algorithm)].algo;
    chosen.offered = offered;
    chosen.id = config<std::int32_t>(chosen.algo, CUBLASLT_ALGO_CONFIG_ID);
    if (options.split_k) {
        std::int32_t splittable = 0;
        std::size_t written = 0;
        check_cublas(cublasLtMatmulAlgoCapGetAttribute(&chosen.algo, CUBLASLT_ALGO_CAP_SPLITK_SUPPORT, &splittable,
                                                       sizeof splittable, &written),
                     "cublasLtMatmulAlgoCapGetAttribute");
        if (*options.split_k > 1 && !splittable)
            device::unsupported("split_k=" + std::to_string(*options.split_k) + ": cuBLASLt's algorithm " +
                                std::to_string(chosen.id) + " cannot be split along K");
        set_config(chosen.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, std::int32_t{*options.split_k});
        set_config(chosen.algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME,
                   std::uint32_t{*options.split_k > 1 ? CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE
                                                      : CUBLASLT_REDUCTION_SCHEME_NONE});
    }
    chosen.split_k = config<std::int32_t>(chosen.algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);

    cublasLtMatmulHeuristicResult_t checked{};
    const cublasStatus_t check =
        cublasLtMatmulAlgoCheck(handle, problem.operation.get(), problem.first.get(), problem.second.get(),
                                problem.c.get(), problem.c.get(), &chosen.algo, &checked);
    if (check != CUBLAS_STATUS_SUCCESS)
        device::unsupported("cublasLtMatmulAlgoCheck refuses " + describe(chosen) + " for this matmul (" +
                            cublasGetStatusName(check) + ")");
    if (checked.workspaceSize > workspace)
        device::unsupported(describe(chosen) + " needs " + std::to_string(checked.workspaceSize) +
                            " bytes of workspace; the instance has " + std::to_string(workspace));
    chosen.workspace = checked.workspaceSize;
    return chosen;
}

std::string describe(const LtAlgorithm& algorithm) {
    return "algorithm " + std::to_string(algorithm.id) + " (of " + std::to_string(algorithm.offered) +
           " offered), split_k " + std::to_string(algorithm.split_k);
}

}  // namespace kcs::cublas_adapter
