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

}  // namespace
}  // namespace kcs::cublas_adapter
