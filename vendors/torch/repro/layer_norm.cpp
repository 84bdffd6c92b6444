// ATen's layer normalization (at::layer_norm over the last axis, with
// gamma and beta) as the torch adapter calls it, alone:
//   inf-gamma DTYPE   a row of one element with gamma -inf gives -inf, not NaN   (C-EXC-01 layernorm)
//   fused-affine      (strict) y = r * gamma + beta is one fused multiply-add (C-CMP-03 layernorm f32,
//                     under fp_contract: off)
//   bf16-statistics   bf16 rows are normalised with a mean, 1/stddev and shift
//                     held in bf16: constant rows come out far from 0        (C-PRC-02, C-PRC-01,
//                                                                             C-ORD-01, C-PRC-04 layernorm bf16)
// DTYPE: f32 or bf16. The cause, in ATen 1.13.1's source
// (native/cpu/layer_norm_kernel.cpp, LayerNormKernelImplInternal): ATen
// computes y = (x * scale + bias) * gamma + beta with scale = rstd and
// bias = -rstd * mean, not (x - mean) * rstd: for a row of one element x
// * scale + bias is the rounding error of rstd * x (the AVX2 kernel fuses
// the multiply and the add), not the 0 that makes 0 * -inf NaN. For bf16,
// mean, rstd, eps and bias are all of the tensor's type T = BFloat16
// (rstd_val = T(1) / std::sqrt(rstd_val + eps), bias = -rstd_val * mean_val),
// so each is rounded to bf16, and x * scale + bias no longer cancels.
// Usage: layer_norm MODE [DTYPE]. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include "repro.hpp"

namespace {

at::Tensor layer_norm(const std::vector<float>& x, std::int64_t n, const std::vector<float>& gamma,
                      const std::vector<float>& beta, at::ScalarType dtype) {
    const auto rows = static_cast<std::int64_t>(x.size()) / n;
    return at::layer_norm(repro::tensor(x, {rows, n}, dtype), {n}, repro::tensor(gamma, {n}, dtype),
                          repro::tensor(beta, {n}, dtype), 1e-5);
}

int inf_gamma(at::ScalarType dtype) {
    // Rows of one element: x - mean is exactly 0, so the catalog's y is 0 * rstd * gamma + beta.
    const std::vector<float> x = repro::bf16_normal(64, 3);
    int finite_or_inf = 0;
    for (const float v : x) {
        const float y = repro::values(layer_norm({v}, 1, {-INFINITY}, {0.f}, dtype))[0];
        finite_or_inf += !std::isnan(y);
    }
    std::printf("at::layer_norm of 64 rows of one normal(0, 1) element, gamma -inf, beta 0: %d of 64 are not NaN "
                "(0 * -inf is NaN)\n", finite_or_inf);
    return repro::verdict(finite_or_inf > 0, "a row of one element with gamma -inf is not NaN");
}

// r, the normalised row (gamma 1, beta 0), then gamma g and beta -RN(r * g):
// rounded apart, r * g + beta is exactly 0; fused, it is the rounding
// error of r * g.
int fused_affine() {
    const std::int64_t n = 1024;
    const std::vector<float> x = repro::bf16_normal(n, 11), g = repro::bf16_uniform(n, 0.5f, 2.f, 12);
    const std::vector<float> r = repro::values(layer_norm(x, n, std::vector<float>(n, 1.f), std::vector<float>(n, 0.f),
                                                          at::kFloat));
    std::vector<float> beta(n);
    for (std::int64_t i = 0; i < n; ++i) beta[i] = -(r[i] * g[i]);
    const std::vector<float> y = repro::values(layer_norm(x, n, g, beta, at::kFloat));
    std::size_t fused = 0;
    for (std::int64_t i = 0; i < n; ++i) fused += y[i] != 0 && y[i] == std::fma(r[i], g[i], beta[i]);
    std::printf("at::layer_norm f32, 1024 features, beta = -RN(r * gamma): %zu of 1024 outputs are the fused "
                "fma(r, gamma, beta), not 0\n", fused);
    return repro::verdict(fused > 0, "layer norm's r * gamma + beta is one fused multiply-add");
}

int bf16_statistics() {
    // Constant rows of 7 (c from 512 to 1024, exact in bf16): x - mean is 0, so y = beta = 0 exactly.
    const std::vector<float> c = repro::bf16_uniform(32, 512.f, 1024.f, 5);
    std::vector<float> x;
    for (const float v : c) x.insert(x.end(), 7, v);
    const std::vector<float> y = repro::values(layer_norm(x, 7, std::vector<float>(7, 1.f), std::vector<float>(7, 0.f),
                                                          at::kBFloat16));
    double worst = 0;
    for (const float v : y) worst = std::max(worst, std::fabs(static_cast<double>(v)));
    // The same bf16 rows of 64 uniform(0, 1), against f32 layer norm of the same values rounded once to bf16.
    const std::vector<float> u = repro::bf16_uniform(64 * 64, 0.f, 1.f, 7);
    const std::vector<float> g(64, 1.f), b(64, 0.f);
    const std::vector<float> y16 = repro::values(layer_norm(u, 64, g, b, at::kBFloat16));
    const std::vector<float> y32 = repro::values(layer_norm(u, 64, g, b, at::kFloat));
    std::size_t off = 0;
    for (std::size_t i = 0; i < u.size(); ++i)
        off += repro::bf16_ulps(y16[i], static_cast<float>(c10::BFloat16(y32[i]))) > 1;
    std::printf("at::layer_norm bf16: constant rows of 7 give outputs up to %g (exactly 0 expected); rows of 64 "
                "uniform(0, 1): %zu of %zu outputs more than 1 bf16 ulp from the f32 layer norm rounded to bf16\n",
                worst, off, u.size());
    return repro::verdict(worst > 0 && off > 0, "bf16 layer norm keeps its statistics in bf16");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "", dtype = argc > 2 ? argv[2] : "f32";
    return repro::guarded([&] {
        if (mode == "inf-gamma") return inf_gamma(repro::dtype_of(dtype));
        if (mode == "bf16-statistics") return bf16_statistics();
        if (mode == "fused-affine") return fused_affine();
        std::fprintf(stderr, "usage: layer_norm inf-gamma [f32|bf16] | layer_norm bf16-statistics|fused-affine\n");
        return 2;
    });
}
