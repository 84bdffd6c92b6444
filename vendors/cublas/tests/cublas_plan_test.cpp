// The cuBLAS adapter's host side, without a GPU: its options, and each
// matmul as the one cuBLAS call it becomes (the column-major view of the
// row-major product, the leading dimensions and batch strides, the data
// and compute types each math option selects, the handle's math mode), and
// what it declines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "adapter_failure.hpp"
#include "gemm.hpp"
#include "lt_matmul.hpp"
#include "options.hpp"

namespace kcs::cublas_adapter {
namespace {

Options parse(const std::vector<const char*>& options) {
    return parse_options(options.data(), static_cast<std::uint32_t>(options.size()));
}

device::TensorRef tensor(Dtype dtype, std::vector<std::int64_t> shape) {
    device::TensorRef t;
    t.dtype = dtype;
    t.shape = shape;
    t.strides.assign(shape.size(), 0);
    std::int64_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) t.strides[d] = stride, stride *= shape[d];
    return t;
}

device::Request matmul(Dtype in, Dtype out, std::vector<std::int64_t> a, std::vector<std::int64_t> b,
                       std::vector<std::int64_t> c) {
    device::Request r;
    r.name = "matmul";
    r.inputs = {tensor(in, a), tensor(in, b)};
    r.outputs = {tensor(out, c)};
    return r;
}

// The status and message an AdapterFailure carries, or KCS_OK.
template <class Body>
std::pair<kcs_status, std::string> outcome(Body&& body) {
    try {
        body();
        return {KCS_OK, ""};
    } catch (const device::AdapterFailure& f) {
        return {f.status(), f.what()};
    }
}

TEST(CublasOptions, TakeCublassOwnModesAndSayWhatTheyAccept) {
    const Options d = parse({});
    EXPECT_EQ(d.math, Math::standard);
    EXPECT_TRUE(d.reduced_precision_reduction);
    EXPECT_FALSE(d.atomics);
    EXPECT_FALSE(d.device.has_value());
    EXPECT_FALSE(d.workspace.has_value());
    const Options o = parse({"device=1", "math=pedantic", "reduced_precision_reduction=false", "atomics=allowed",
                             "workspace=4194304"});
    EXPECT_EQ(o.device, 1);
    EXPECT_EQ(o.math, Math::pedantic);
    EXPECT_FALSE(o.reduced_precision_reduction);
    EXPECT_TRUE(o.atomics);
    EXPECT_EQ(o.workspace, 4194304u);
    EXPECT_EQ(parse({"math=tf32"}).math, Math::tf32);
    for (const char* bad : {"math=fast", "device=-1", "device=x", "atomics=yes", "workspace=1k",
                            "reduced_precision_reduction=1", "threads=2"}) {
        const auto [status, message] = outcome([&] { parse({bad}); });
        EXPECT_EQ(status, KCS_INVALID_ARGUMENT) << bad;
        const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
        EXPECT_NE(message.find(key), std::string::npos) << message;
    }
    EXPECT_NE(outcome([] { parse({"math=fast"}); }).second.find("expected default, tf32 or pedantic"),
              std::string::npos);
}

TEST(CublasGemm, IsTheColumnMajorProductOfTheTransposes) {
    // C [3, 5] = A [3, 4] B [4, 5]: cuBLAS computes C^T [5, 3] = B^T [5, 4] A^T [4, 3].
    const GemmPlan p = plan_gemm(matmul(Dtype::f32, Dtype::f32, {3, 4}, {4, 5}, {3, 5}), Options{});
    EXPECT_EQ(p.m, 5);
    EXPECT_EQ(p.n, 3);
    EXPECT_EQ(p.k, 4);
    EXPECT_EQ(p.ld_first, 5);   // B, row-major [4, 5]
    EXPECT_EQ(p.ld_second, 4);  // A, row-major [3, 4]
    EXPECT_EQ(p.ld_c, 5);
    EXPECT_EQ(p.batch, 1);
    EXPECT_FALSE(p.empty);
    EXPECT_EQ(p.input_type, CUDA_R_32F);
    EXPECT_EQ(p.compute, CUBLAS_COMPUTE_32F);
}

TEST(CublasGemm, StridesABatchByWholeMatrices) {
    const GemmPlan p = plan_gemm(matmul(Dtype::f32, Dtype::f32, {7, 3, 4}, {7, 4, 5}, {7, 3, 5}), Options{});
    EXPECT_EQ(p.batch, 7);
    EXPECT_EQ(p.stride_a, 12);
    EXPECT_EQ(p.stride_b, 20);
    EXPECT_EQ(p.stride_c, 15);
    // K = 0 keeps leading dimensions of at least 1; no rows is nothing to launch.
    const GemmPlan no_k = plan_gemm(matmul(Dtype::f32, Dtype::f32, {3, 0}, {0, 5}, {3, 5}), Options{});
    EXPECT_EQ(no_k.ld_second, 1);
    EXPECT_FALSE(no_k.empty);
    EXPECT_TRUE(plan_gemm(matmul(Dtype::f32, Dtype::f32, {0, 4}, {4, 5}, {0, 5}), Options{}).empty);
}

TEST(CublasGemm, MapsEachDtypeConfigurationToAnF32AccumulatingGemm) {
    struct Case {
        Dtype in, out;
        cudaDataType_t input, output;
    };
    for (const Case& c : {Case{Dtype::f16, Dtype::f16, CUDA_R_16F, CUDA_R_16F},
                          Case{Dtype::f16, Dtype::f32, CUDA_R_16F, CUDA_R_32F},
                          Case{Dtype::bf16, Dtype::bf16, CUDA_R_16BF, CUDA_R_16BF},
                          Case{Dtype::bf16, Dtype::f32, CUDA_R_16BF, CUDA_R_32F}}) {
        const GemmPlan p = plan_gemm(matmul(c.in, c.out, {2, 2}, {2, 2}, {2, 2}), Options{});
        EXPECT_EQ(p.input_type, c.input);
        EXPECT_EQ(p.output_type, c.output);
        EXPECT_EQ(p.compute, CUBLAS_COMPUTE_32F);
    }
}

TEST(CublasGemm, TheMathOptionChoosesTheComputeTypeAndTheHandlesMode) {
    Options tf32;
    tf32.math = Math::tf32;
    EXPECT_EQ(plan_gemm(matmul(Dtype::f32, Dtype::f32, {2, 2}, {2, 2}, {2, 2}), tf32).compute,
              CUBLAS_COMPUTE_32F_FAST_TF32);
    // TF32 is a rounding of f32 inputs: f16 and bf16 products keep CUBLAS_COMPUTE_32F.
    EXPECT_EQ(plan_gemm(matmul(Dtype::bf16, Dtype::f32, {2, 2}, {2, 2}, {2, 2}), tf32).compute, CUBLAS_COMPUTE_32F);
    EXPECT_EQ(math_mode(tf32), CUBLAS_TF32_TENSOR_OP_MATH);
    Options pedantic;
    pedantic.math = Math::pedantic;
    EXPECT_EQ(plan_gemm(matmul(Dtype::f16, Dtype::f16, {2, 2}, {2, 2}, {2, 2}), pedantic).compute,
              CUBLAS_COMPUTE_32F_PEDANTIC);
    EXPECT_EQ(math_mode(pedantic), CUBLAS_PEDANTIC_MATH);
    Options strict_reduction;
    strict_reduction.reduced_precision_reduction = false;
    EXPECT_EQ(math_mode(strict_reduction),
              static_cast<cublasMath_t>(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION));
    EXPECT_EQ(math_mode(Options{}), CUBLAS_DEFAULT_MATH);
    EXPECT_EQ(compute_name(CUBLAS_COMPUTE_32F_FAST_TF32), "CUBLAS_COMPUTE_32F_FAST_TF32");
}

TEST(CublasGemm, DeclinesWhatItDoesNotComputeAndRefusesWhatContradictsItself) {
    device::Request softmax = matmul(Dtype::f32, Dtype::f32, {2, 2}, {2, 2}, {2, 2});
    softmax.name = "softmax";
    EXPECT_EQ(outcome([&] { plan_gemm(softmax, Options{}); }).first, KCS_UNSUPPORTED);
    // f32 inputs to an f16 output is no configuration of the catalog's matmul.
    EXPECT_EQ(outcome([] { plan_gemm(matmul(Dtype::f32, Dtype::f16, {2, 2}, {2, 2}, {2, 2}), Options{}); }).first,
              KCS_UNSUPPORTED);
    EXPECT_EQ(outcome([] { plan_gemm(matmul(Dtype::f32, Dtype::f32, {2, 3}, {2, 2}, {2, 2}), Options{}); }).first,
              KCS_INVALID_ARGUMENT);
    const auto [status, message] = outcome([] {
        plan_gemm(matmul(Dtype::f32, Dtype::f32, {1, 3'000'000'000LL}, {3'000'000'000LL, 1}, {1, 1}), Options{});
    });
    EXPECT_EQ(status, KCS_UNSUPPORTED);
    EXPECT_NE(message.find("exceeds cuBLAS's int extents"), std::string::npos) << message;
}

TEST(CublasOptions, KeepEachApisChoicesToIt) {
    const Options lt = parse({"api=cublaslt", "algorithm=2", "split_k=4", "math=pedantic", "workspace=1048576"});
    EXPECT_EQ(lt.api, Api::cublaslt);
    EXPECT_EQ(lt.algorithm, 2);
    EXPECT_EQ(lt.split_k, 4);
    EXPECT_EQ(parse({}).api, Api::cublas);
    EXPECT_FALSE(parse({"api=cublaslt"}).split_k.has_value());
    const std::pair<std::vector<const char*>, const char*> refused[] = {
        {{"split_k=2"}, "need api=cublaslt"},
        {{"algorithm=1"}, "need api=cublaslt"},
        {{"api=cublaslt", "atomics=allowed"}, "modes of a cuBLAS handle"},
        {{"api=cublaslt", "reduced_precision_reduction=false"}, "modes of a cuBLAS handle"},
        {{"api=cublaslt", "split_k=0"}, "from 1 to 1024"},
        {{"api=cublaslt", "split_k=1025"}, "from 1 to 1024"},
        {{"api=cublaslt", "algorithm=64"}, "from 0 to 63"},
        {{"api=cublasxt"}, "expected cublas or cublaslt"}};
    for (const auto& [options, expected] : refused) {
        const auto [status, message] = outcome([&] { parse(options); });
        EXPECT_EQ(status, KCS_INVALID_ARGUMENT) << options.back();
        EXPECT_NE(message.find(expected), std::string::npos) << message;
    }
}

// cuBLASLt's descriptors are host objects: what the adapter sets on them is
// read back here, without a device.
template <typename T>
T layout_attribute(const LtLayout& layout, cublasLtMatrixLayoutAttribute_t attribute) {
    T value{};
    std::size_t written = 0;
    EXPECT_EQ(cublasLtMatrixLayoutGetAttribute(layout.get(), attribute, &value, sizeof value, &written),
              CUBLAS_STATUS_SUCCESS);
    return value;
}

struct LayoutFigures {
    std::uint64_t rows, columns;
    std::int64_t ld;
    std::int32_t batch;
    std::int64_t stride;
    std::uint32_t type;
};
LayoutFigures figures(const LtLayout& layout) {
    return {layout_attribute<std::uint64_t>(layout, CUBLASLT_MATRIX_LAYOUT_ROWS),
            layout_attribute<std::uint64_t>(layout, CUBLASLT_MATRIX_LAYOUT_COLS),
            layout_attribute<std::int64_t>(layout, CUBLASLT_MATRIX_LAYOUT_LD),
            layout_attribute<std::int32_t>(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT),
            layout_attribute<std::int64_t>(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET),
            layout_attribute<std::uint32_t>(layout, CUBLASLT_MATRIX_LAYOUT_TYPE)};
}

TEST(CublasLt, DescribesTheColumnMajorProductOfTheTransposes) {
    // C [7, 3, 5] = A [7, 3, 4] B [7, 4, 5], bf16 in, f32 out: cuBLASLt's A is
    // B^T [5 x 4], its B is A^T [4 x 3], C^T [5 x 3], seven of each.
    Options tf32;
    tf32.math = Math::tf32;
    const GemmPlan plan = plan_gemm(matmul(Dtype::bf16, Dtype::f32, {7, 3, 4}, {7, 4, 5}, {7, 3, 5}), tf32);
    const LtProblem problem = lt_problem(plan);
    const LayoutFigures first = figures(problem.first), second = figures(problem.second), c = figures(problem.c);
    EXPECT_EQ(first.rows, 5u);
    EXPECT_EQ(first.columns, 4u);
    EXPECT_EQ(first.ld, 5);
    EXPECT_EQ(first.stride, 20);  // B's [4, 5] per batch item
    EXPECT_EQ(second.rows, 4u);
    EXPECT_EQ(second.columns, 3u);
    EXPECT_EQ(second.ld, 4);
    EXPECT_EQ(second.stride, 12);  // A's [3, 4]
    EXPECT_EQ(c.rows, 5u);
    EXPECT_EQ(c.columns, 3u);
    EXPECT_EQ(c.ld, 5);
    EXPECT_EQ(c.stride, 15);
    for (const LayoutFigures& f : {first, second, c}) EXPECT_EQ(f.batch, 7);
    EXPECT_EQ(first.type, static_cast<std::uint32_t>(CUDA_R_16BF));
    EXPECT_EQ(c.type, static_cast<std::uint32_t>(CUDA_R_32F));

    std::int32_t compute = 0, scale = 0;
    std::size_t written = 0;
    ASSERT_EQ(cublasLtMatmulDescGetAttribute(problem.operation.get(), CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute,
                                             sizeof compute, &written),
              CUBLAS_STATUS_SUCCESS);
    ASSERT_EQ(cublasLtMatmulDescGetAttribute(problem.operation.get(), CUBLASLT_MATMUL_DESC_SCALE_TYPE, &scale,
                                             sizeof scale, &written),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(compute, CUBLAS_COMPUTE_32F);  // TF32 rounds f32 inputs only
    EXPECT_EQ(scale, CUDA_R_32F);
    Options pedantic;
    pedantic.math = Math::pedantic;
    const LtProblem strict = lt_problem(plan_gemm(matmul(Dtype::f32, Dtype::f32, {2, 2}, {2, 2}, {2, 2}), pedantic));
    ASSERT_EQ(cublasLtMatmulDescGetAttribute(strict.operation.get(), CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute,
                                             sizeof compute, &written),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(compute, CUBLAS_COMPUTE_32F_PEDANTIC);
}

// Tensors at offsets: cuBLASLt may only choose algorithms that assume the
// alignment each operand's address has (cublasLtMatmul's A is KCS's B).
TEST(CublasLt, PrefersAlgorithmsForTheOperandsAlignment) {
    device::Request request = matmul(Dtype::f32, Dtype::f32, {3, 4}, {4, 5}, {3, 5});
    request.inputs[0].offset = 4;     // A
    request.inputs[1].offset = 192;   // B: 64 divides it, 128 does not
    request.outputs[0].offset = 512;  // C: beyond 256, capped there
    const GemmPlan plan = plan_gemm(request, Options{});
    EXPECT_EQ(plan.align_a, 4u);
    EXPECT_EQ(plan.align_b, 64u);
    EXPECT_EQ(plan.align_c, 256u);
    const LtPreference preference = lt_preference(plan, 1 << 20);
    const auto read = [&](cublasLtMatmulPreferenceAttributes_t attribute) {
        std::uint32_t value = 0;
        std::size_t written = 0;
        EXPECT_EQ(cublasLtMatmulPreferenceGetAttribute(preference.get(), attribute, &value, sizeof value, &written),
                  CUBLAS_STATUS_SUCCESS);
        return value;
    };
    EXPECT_EQ(read(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES), 64u);  // KCS's B
    EXPECT_EQ(read(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES), 4u);   // KCS's A
    EXPECT_EQ(read(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES), 256u);
    EXPECT_EQ(read(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES), 256u);
    std::uint64_t workspace = 0;
    std::size_t written = 0;
    ASSERT_EQ(cublasLtMatmulPreferenceGetAttribute(preference.get(), CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                   &workspace, sizeof workspace, &written),
              CUBLAS_STATUS_SUCCESS);
    EXPECT_EQ(workspace, 1u << 20);
}

}  // namespace
}  // namespace kcs::cublas_adapter
