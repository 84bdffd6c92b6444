// ATen's elementwise functions (at::maximum, at::gelu, at::sigmoid) as the
// torch adapter calls them, alone:
//   maximum-zero DTYPE     maximum(+0, -0) is -0 in the vectorised body        (C-CMP-03 elementwise.maximum)
//   gelu-inf DTYPE [A]     gelu(-inf) is NaN, not -0                           (C-EXC-01, C-CMP-03 unary.gelu)
//   gelu-tail DTYPE [A]    gelu(x) for x below about -5 is far from x Phi(x)   (C-CMP-01 unary.gelu)
//                          A: at::gelu's approximate, none (default) or tanh (the adapter's gelu=tanh)
//   gelu-bf16-steps [A]    bf16 gelu rounds to bf16 after every operation      (C-PRC-04 unary.gelu bf16)
//   sigmoid-underflow DTYPE  sigmoid(x) is 0 where the true value is subnormal (C-CMP-01, C-CMP-02 unary.sigmoid)
//   addcmul-fused DTYPE  (strict) addcmul(c, a, b) is a * b + c rounded once   (C-CMP-03 elementwise.mul_add,
//                        (f32: one FMA; bf16: in f32, then rounded to bf16)   under fp_contract: off)
// DTYPE: f32, f16 or bf16 (gelu and sigmoid: f32 or bf16). The causes, in
// ATen 1.13.1's source: maximum's vector body is at::vec::maximum, AVX2
// _mm256_max_ps, which returns its second operand for two zeros (its
// scalar tail is std::max, which returns the first); gelu is
// x * 0.5 * (1 + erf(x / sqrt 2)) (native/cpu/Activation.cpp,
// GeluKernelImpl), in which 1 + erf cancels to 0 for large negative x and
// -inf * 0 is NaN, and for bf16 every operation is a Vectorized<BFloat16>
// operation rounded to bf16 (the constants too). For f32 tensors of more
// than one element ATen calls oneDNN's eltwise_gelu_erf instead
// (native/Activation.cpp, gelu_out_cpu and use_mkldnn), the same formula
// in oneDNN's JIT code: gelu-inf and gelu-tail show both; sigmoid is
// 1 / (1 + exp(-x)) (native/cpu/UnaryOpsKernel.cpp, sigmoid_kernel), whose
// exp(-x) overflows to inf for x < -88.7 although the true result is a
// subnormal down to x = -103.3.
// Usage: functions MODE [DTYPE]. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include "repro.hpp"

namespace {

using repro::bits;

int maximum_zero(at::ScalarType dtype) {
    // 64 pairs: the vector body runs (8 floats, 16 halves a vector); a single pair runs the scalar tail.
    const at::Tensor body = at::maximum(repro::tensor(std::vector<float>(64, 0.f), {64}, dtype),
                                        repro::tensor(std::vector<float>(64, -0.f), {64}, dtype));
    const at::Tensor tail = at::maximum(repro::tensor({-0.f}, {1}, dtype), repro::tensor({0.f}, {1}, dtype));
    int negative = 0;
    for (const float y : repro::values(body)) negative += std::signbit(y);
    std::printf("at::maximum(+0, -0) over 64 elements: %d of 64 are -0; at::maximum(-0, +0) of one element: %s\n",
                negative, std::signbit(repro::values(tail)[0]) ? "-0" : "+0");
    return repro::verdict(negative > 0, "maximum(+0, -0) is -0 (IEEE 754-2019 maximum orders -0 below +0)");
}

// Runs `body` with ATen's oneDNN dispatch as it is (on: an f32 gelu of more
// than one contiguous element is oneDNN's eltwise_gelu_erf) and off
// (ATen's own GeluKernelImpl, as for one element or bf16 on this CPU);
// returns what the default dispatch gave.
// With approximate="tanh" ATen's own kernel is the only path.
template <class Body>
bool both_paths(at::ScalarType dtype, const std::string& approximate, Body&& body) {
    if (approximate == "tanh") return body("ATen's GeluKernelImpl, approximate tanh");
    const bool seen = body(dtype == at::kFloat ? "oneDNN eltwise_gelu_erf (ATen's dispatch for f32)" : "ATen's GeluKernelImpl");
    if (dtype == at::kFloat) {
        at::globalContext().setUserEnabledMkldnn(false);
        body("ATen's GeluKernelImpl (oneDNN dispatch off)");
        at::globalContext().setUserEnabledMkldnn(true);
    }
    return seen;
}

int gelu_inf(at::ScalarType dtype, const std::string& approximate) {
    const bool seen = both_paths(dtype, approximate, [&](const char* path) {
        const at::Tensor y = at::gelu(repro::tensor(std::vector<float>(64, -INFINITY), {64}, dtype), approximate);
        const float first = repro::values(y)[0];
        std::printf("at::gelu(-inf), 64 elements, %s: %g (the limit of x Phi(x) at -inf is -0)\n", path, first);
        return std::isnan(first);
    });
    return repro::verdict(seen, "gelu(-inf) is NaN: -inf * 0.5 * (1 + erf(-inf)), or (1 + tanh(-inf)), is -inf * 0");
}

// x Phi(x) = x/2 erfc(-x / sqrt 2), without the cancellation of 1 + erf.
long double exact_gelu(long double x) { return x / 2 * std::erfc(-x / std::sqrt(2.0L)); }

int gelu_tail(at::ScalarType dtype, const std::string& approximate) {
    const bool bf16 = dtype == at::kBFloat16;
    // Every x from -20 to -3 in steps of 1/64, in the dtype.
    std::vector<float> x;
    for (int i = 0; i <= 17 * 64; ++i) x.push_back(static_cast<float>(c10::BFloat16(-20.f + i / 64.f)));
    // The catalog's bounds for gelu: 33 ulp in f32, 4 ulp in bf16.
    const double bound = bf16 ? 4 : 33;
    const bool seen = both_paths(dtype, approximate, [&](const char* path) {
        const std::vector<float> y =
            repro::values(at::gelu(repro::tensor(x, {static_cast<std::int64_t>(x.size())}, dtype), approximate));
        double worst = 0;
        std::size_t at = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const long double want = exact_gelu(x[i]);
            const float rounded =
                bf16 ? static_cast<float>(c10::BFloat16(static_cast<float>(want))) : static_cast<float>(want);
            const double e = bf16 ? repro::bf16_ulps(y[i], rounded) : repro::ulps(y[i], rounded);
            if (e > worst) worst = e, at = i;
        }
        std::printf("at::gelu on x in [-20, -3], %s: worst error %.0f ulp at x = %.9g: got %.9g, x Phi(x) = %.9Lg\n",
                    path, worst, x[at], y[at], exact_gelu(x[at]));
        return worst > bound;
    });
    return repro::verdict(seen, "gelu's 1 + erf(x / sqrt 2), or 1 + tanh(...), cancels for large negative x: error beyond the bound");
}

int gelu_bf16_steps(const std::string& approximate) {
    const std::vector<float> x = repro::bf16_normal(65536, 1);
    const auto n = static_cast<std::int64_t>(x.size());
    const std::vector<float> y = repro::values(at::gelu(repro::tensor(x, {n}, at::kBFloat16), approximate));
    const std::vector<float> y32 = repro::values(at::gelu(repro::tensor(x, {n}, at::kFloat), approximate));
    // ATen's formula in c10::BFloat16 arithmetic: every operation rounded to bf16, the constants too.
    using B = c10::BFloat16;
    std::size_t unrounded = 0, stepwise = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const B b(x[i]);
        const B steps =
            approximate == "tanh"
                ? B(0.5f) * b *
                      (B(1.f) + B(std::tanh(static_cast<float>(B(static_cast<float>(M_SQRT2 * M_2_SQRTPI * 0.5)) *
                                                               (b + B(0.044715f) * (b * b * b))))))
                : b * B(0.5f) * (B(1.f) + B(std::erf(static_cast<float>(b * B(static_cast<float>(M_SQRT1_2))))));
        stepwise += bits(static_cast<float>(steps)) == bits(y[i]);
        unrounded += bits(static_cast<float>(B(y32[i]))) != bits(y[i]);
    }
    std::printf("at::gelu bf16 of %zu normal(0, 1) inputs: %zu differ from the f32 gelu rounded once to bf16; "
                "%zu equal ATen's formula evaluated in bf16 step by step\n",
                x.size(), unrounded, stepwise);
    return repro::verdict(unrounded > 0 && stepwise * 100 >= x.size() * 99,
                          "bf16 gelu is the formula in bf16 arithmetic, rounded after every operation");
}

int sigmoid_underflow(at::ScalarType dtype) {
    const bool bf16 = dtype == at::kBFloat16;
    const float x = bf16 ? -89.f : -96.f;  // exp(-x) overflows; sigmoid(x) = e^x is subnormal
    const float y = repro::values(at::sigmoid(repro::tensor(std::vector<float>(64, x), {64}, dtype)))[0];
    const long double want = 1 / (1 + std::exp(static_cast<long double>(-x)));
    std::printf("at::sigmoid(%g) = %g; the true value is %.6Lg (subnormal, representable)\n", x, y, want);
    return repro::verdict(y == 0 && want > 1e-45L, "sigmoid(x) is 0 where exp(-x) overflows, though the true value is a subnormal");
}

// mul_add(a, b, -RN(a * b)) as KCS probes it: 0 when the product is
// rounded before the add, its rounding error when fused.
int addcmul_fused(at::ScalarType dtype) {
    // f32 operands with full mantissas (bf16 ones would multiply exactly in f32).
    std::vector<float> a(64), b(64), c(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = 1.0f + static_cast<float>(i) * 0.0123457f;
        b[i] = 3.0f - static_cast<float>(i) * 0.0271828f;
    }
    if (dtype == at::kBFloat16) a = repro::bf16_normal(64, 21), b = repro::bf16_normal(64, 22);
    for (int i = 0; i < 64; ++i) {
        const float product = dtype == at::kBFloat16 ? static_cast<float>(c10::BFloat16(a[i] * b[i])) : a[i] * b[i];
        c[i] = -product;
    }
    const std::vector<float> y = repro::values(
        at::addcmul(repro::tensor(c, {64}, dtype), repro::tensor(a, {64}, dtype), repro::tensor(b, {64}, dtype)));
    int nonzero = 0;
    for (const float v : y) nonzero += v != 0;
    std::printf("at::addcmul(-RN(a * b), a, b) over 64 elements: %d of 64 are not 0 (the product's rounding error)\n",
                nonzero);
    return repro::verdict(nonzero > 0, "addcmul rounds a * b + c once, a fused multiply-add");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "", dtype = argc > 2 ? argv[2] : "f32";
    const std::string approximate = argc > 3 ? argv[3] : "none";
    if (approximate != "none" && approximate != "tanh") {
        std::fprintf(stderr, "gelu's approximate is none or tanh, not %s\n", approximate.c_str());
        return 2;
    }
    return repro::guarded([&] {
        if (mode == "maximum-zero") return maximum_zero(repro::dtype_of(dtype));
        if (mode == "gelu-inf") return gelu_inf(repro::dtype_of(dtype), approximate);
        if (mode == "gelu-tail") return gelu_tail(repro::dtype_of(dtype), approximate);
        if (mode == "gelu-bf16-steps") return gelu_bf16_steps(approximate);
        if (mode == "sigmoid-underflow") return sigmoid_underflow(repro::dtype_of(dtype));
        if (mode == "addcmul-fused") return addcmul_fused(repro::dtype_of(dtype));
        std::fprintf(stderr, "usage: functions maximum-zero|gelu-inf|gelu-tail|gelu-bf16-steps|sigmoid-underflow|addcmul-fused [f32|f16|bf16] [none|tanh]\n");
        return 2;
    });
}
