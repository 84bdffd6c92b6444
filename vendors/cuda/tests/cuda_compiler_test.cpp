// The CUDA adapter's host side, without a GPU: its options, its kernel
// families, and NVRTC compiling every family for the device runs' GPUs
// (sm_90: H100 and H200) under each set of float controls. The PTX of a
// compute_90 build shows what each control does to the kernels: which
// instructions round, fuse, flush or approximate.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "adapter_failure.hpp"
#include "compiler.hpp"
#include "families.hpp"
#include "options.hpp"

namespace kcs::cuda {
namespace {

Options parse(std::vector<const char*> options) {
    return parse_options(options.data(), static_cast<std::uint32_t>(options.size()));
}

std::string failure_of(std::vector<const char*> options) {
    try {
        parse(std::move(options));
    } catch (const device::AdapterFailure& failure) {
        return std::to_string(failure.status()) + " " + failure.what();
    }
    return "accepted";
}

const std::string& include_dir() {
    static const std::string dir = cuda_include_dir("");
    return dir;
}

std::string ptx_of(Family family, const FloatControls& controls) {
    return compile(family, "compute_90", controls, include_dir()).image;
}

// How many PTX instructions with this opcode (e.g. "fma.rn.f32") the text has.
int count(const std::string& ptx, const std::string& opcode) {
    int n = 0;
    for (std::size_t at = ptx.find(opcode + " "); at != std::string::npos; at = ptx.find(opcode + " ", at + 1))
        if (at > 0 && (ptx[at - 1] == '\t' || ptx[at - 1] == ' ')) ++n;
    return n;
}

FloatControls with(bool FloatControls::*control, bool value) {
    FloatControls controls;
    controls.*control = value;
    return controls;
}

TEST(CudaOptions, DefaultToIeeeArithmeticWithoutContraction) {
    const Options options = parse({});
    EXPECT_FALSE(options.device);
    EXPECT_EQ(describe(options.controls), "-ftz=false -prec-div=true -prec-sqrt=true -fmad=false");
    EXPECT_EQ(options.local_size, kDefaultLocalSize);
}

TEST(CudaOptions, FastMathImpliesWhatNvccDocuments) {
    EXPECT_EQ(describe(parse({"fast_math=true"}).controls),
              "--use_fast_math -ftz=true -prec-div=false -prec-sqrt=false -fmad=true");
    EXPECT_EQ(describe(parse({"fast_math=true", "fmad=true"}).controls),
              "--use_fast_math -ftz=true -prec-div=false -prec-sqrt=false -fmad=true");
    EXPECT_EQ(describe(parse({"ftz=true", "fmad=true"}).controls), "-ftz=true -prec-div=true -prec-sqrt=true -fmad=true");
    EXPECT_EQ(describe(parse({"prec_div=false", "prec_sqrt=false"}).controls),
              "-ftz=false -prec-div=false -prec-sqrt=false -fmad=false");
}

TEST(CudaOptions, AreRefusedWithWhatTheAdapterTakes) {
    EXPECT_NE(failure_of({"fast_math=true", "ftz=false"}).find("ftz=false contradicts fast_math=true"),
              std::string::npos);
    EXPECT_NE(failure_of({"fast_math=yes"}).find("fast_math=yes"), std::string::npos);
    EXPECT_NE(failure_of({"local_size=3"}).find("local_size"), std::string::npos);
    EXPECT_NE(failure_of({"local_size=2048"}).find("local_size"), std::string::npos);
    EXPECT_NE(failure_of({"device=-1"}).find("device"), std::string::npos);
    EXPECT_EQ(failure_of({"include=/nonexistent"}), "accepted");  // parsed here; the folder is checked at open
    EXPECT_NE(failure_of({"build_options=-O3"}).find("fast_math=true|false"), std::string::npos);
    EXPECT_EQ(failure_of({"device=1", "local_size=64", "fmad=true"}), "accepted");
    EXPECT_THROW(cuda_include_dir("/nonexistent"), device::AdapterFailure);
}

TEST(CudaFamilies, NameEveryConfigurationTheOperatorFilesList) {
    using device::Dtype;
    EXPECT_EQ(name_expression("softmax", Dtype::f16, Dtype::f32), "kcs::softmax<__half, float>");
    EXPECT_EQ(gather_expression(Dtype::bf16, Dtype::i64), "kcs::gather<unsigned short, long long>");
    const std::vector<std::string> norms = name_expressions(Family::norms);
    EXPECT_EQ(norms.size(), 10u);  // layernorm and rmsnorm, five configurations each
    EXPECT_NE(std::find(norms.begin(), norms.end(), "kcs::rmsnorm<__nv_bfloat16, __nv_bfloat16>"), norms.end());
    EXPECT_EQ(name_expressions(Family::unary).size(), 21u);  // seven functions, three dtypes
    EXPECT_EQ(name_expressions(Family::reduce).size(), 8u);  // reduce_sum's five, reduce_max's three
}

// Every family compiles to a cubin for sm_90 under the default controls and
// under fast math, with a kernel for every name expression.
TEST(CudaCompiler, BuildsEveryFamilyForSm90) {
    for (const FloatControls& controls : {FloatControls{}, parse({"fast_math=true"}).controls}) {
        for (const Family family : kFamilies) {
            SCOPED_TRACE(std::string(name_of(family)) + " under " + describe(controls));
            const CompiledModule compiled = compile(family, "sm_90", controls, include_dir());
            EXPECT_GT(compiled.image.size(), 1000u);
            ASSERT_EQ(compiled.lowered.size(), name_expressions(family).size());
            for (const auto& [expression, lowered] : compiled.lowered) EXPECT_EQ(lowered.rfind("_Z", 0), 0u) << expression;
        }
    }
}

// -fmad=false (the default) keeps a * b + c two roundings (mul.rn and
// add.rn, which ptxas may not fuse); -fmad=true fuses elementwise mul_add.
TEST(CudaCompiler, FmadDecidesWhetherMulAddIsFused) {
    const std::string unfused = ptx_of(Family::elementwise, FloatControls{});
    EXPECT_EQ(count(unfused, "fma.rn.f32"), 0);
    EXPECT_GT(count(unfused, "mul.rn.f32"), 0);
    const std::string fused = ptx_of(Family::elementwise, with(&FloatControls::fmad, true));
    EXPECT_GT(count(fused, "fma.rn.f32"), 0);
    EXPECT_EQ(count(fused, "mul.rn.f32"), 0);
}

// -ftz=true flushes every f32 add and multiply; the default flushes none.
TEST(CudaCompiler, FtzFlushesF32Arithmetic) {
    EXPECT_EQ(count(ptx_of(Family::elementwise, FloatControls{}), "add.rn.ftz.f32"), 0);
    const std::string flushed = ptx_of(Family::elementwise, with(&FloatControls::ftz, true));
    EXPECT_GT(count(flushed, "add.rn.ftz.f32"), 0);
    EXPECT_EQ(count(flushed, "add.rn.f32"), 0);
}

// -prec-div=true divides with IEEE rounding (div.rn); false approximates.
TEST(CudaCompiler, PrecDivDecidesTheDivision) {
    EXPECT_GT(count(ptx_of(Family::softmax, FloatControls{}), "div.rn.f32"), 0);
    const std::string approximate = ptx_of(Family::softmax, with(&FloatControls::prec_div, false));
    EXPECT_EQ(count(approximate, "div.rn.f32"), 0);
    EXPECT_GT(count(approximate, "div.full.f32"), 0);
}

// -prec-sqrt=true takes the IEEE square root (sqrt.rn) in the norms.
TEST(CudaCompiler, PrecSqrtDecidesTheSquareRoot) {
    EXPECT_GT(count(ptx_of(Family::norms, FloatControls{}), "sqrt.rn.f32"), 0);
    const std::string approximate = ptx_of(Family::norms, with(&FloatControls::prec_sqrt, false));
    EXPECT_EQ(count(approximate, "sqrt.rn.f32"), 0);
    EXPECT_GT(count(approximate, "sqrt.approx.f32"), 0);
}

// --use_fast_math turns logf into the lg2.approx intrinsic and flushes:
// the unary module's log is a single approximate instruction.
TEST(CudaCompiler, FastMathApproximatesTheFunctions) {
    const std::string exact = ptx_of(Family::unary, FloatControls{});
    const std::string fast = ptx_of(Family::unary, parse({"fast_math=true"}).controls);
    EXPECT_GT(count(fast, "lg2.approx.ftz.f32"), 0);
    EXPECT_LT(fast.size(), exact.size());
}

}  // namespace
}  // namespace kcs::cuda
