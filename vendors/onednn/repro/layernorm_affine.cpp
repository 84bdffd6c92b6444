// oneDNN's layer normalization (layer_normalization_forward, use_scale and
// use_shift, forward_inference, f32 rows) as the onednn adapter creates
// it, alone: its last step, y = r * gamma + beta with r the normalised
// value, is one fused multiply-add on this CPU (the AVX2 kernel's vfmadd).
// KCS judges it under strict, which refuses the claim fp_contract: "on"
// and judges as off (C-CMP-03 layernorm f32). The probe: r from gamma 1
// and beta 0, then gamma g and beta -RN(r * g): rounded apart, r * g + beta
// is exactly 0; fused, it is the rounding error of r * g.
// Usage: layernorm_affine. Exit 0: the fused step is seen; 1: not; 2: error.
#include "repro.hpp"

#include <random>
#include <unordered_map>

namespace {

std::vector<float> layer_norm(const std::vector<float>& x, std::vector<float> gamma, std::vector<float> beta) {
    using Norm = dnnl::layer_normalization_forward;
    const auto n = static_cast<dnnl::memory::dim>(x.size());
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const dnnl::memory::desc data({1, n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
    const dnnl::memory::desc vector({n}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
    const Norm norm(Norm::primitive_desc(Norm::desc(dnnl::prop_kind::forward_inference, data, 1e-5f, flags), engine));
    std::vector<float> in = x, y(x.size());
    norm.execute(stream, {{DNNL_ARG_SRC, dnnl::memory(data, engine, in.data())},
                          {DNNL_ARG_SCALE, dnnl::memory(vector, engine, gamma.data())},
                          {DNNL_ARG_SHIFT, dnnl::memory(vector, engine, beta.data())},
                          {DNNL_ARG_DST, dnnl::memory(data, engine, y.data())}});
    stream.wait();
    return y;
}

}  // namespace

int main() {
    const std::size_t n = 1024;
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.f, 1.f);
    std::uniform_real_distribution<float> uniform(0.5f, 2.f);
    std::vector<float> x(n), g(n);
    for (float& v : x) v = normal(rng);
    for (float& v : g) v = uniform(rng);
    try {
        const std::vector<float> r = layer_norm(x, std::vector<float>(n, 1.f), std::vector<float>(n, 0.f));
        std::vector<float> beta(n);
        for (std::size_t i = 0; i < n; ++i) beta[i] = -(r[i] * g[i]);
        const std::vector<float> y = layer_norm(x, g, beta);
        std::size_t fused = 0;
        for (std::size_t i = 0; i < n; ++i) fused += y[i] != 0 && y[i] == std::fma(r[i], g[i], beta[i]);
        std::printf("oneDNN layer normalization f32, 1024 features, beta = -RN(r * gamma): %zu of 1024 outputs are "
                    "the fused fma(r, gamma, beta), not 0\n", fused);
        return repro::verdict(fused > 0, "the layer normalization's r * gamma + beta is one fused multiply-add");
    } catch (const dnnl::error& e) {
        std::fprintf(stderr, "oneDNN: %s\n", e.what());
        return 2;
    }
}
