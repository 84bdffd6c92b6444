// What the oneDNN repros share: oneDNN's own API (dnnl.hpp) on the CPU
// engine, the bits of a float, and an ulp distance. No KCS code.
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace repro {

inline std::uint32_t bits(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}
inline float from_bits(std::uint32_t u) {
    float x;
    std::memcpy(&x, &u, 4);
    return x;
}
// The distance in ulps between two finite floats: how many floats lie
// between them (the bit patterns, ordered as integers across zero).
inline double ulps(float a, float b) {
    auto ordered = [](float x) {
        const std::int64_t u = bits(x) & 0x7fffffffu;
        return (bits(x) >> 31) ? -u : u;
    };
    return static_cast<double>(std::llabs(ordered(a) - ordered(b)));
}

struct Cpu {
    dnnl::engine engine{dnnl::engine::kind::cpu, 0};
    dnnl::stream stream{engine};
};

inline dnnl::memory::desc vec(std::size_t n, dnnl::memory::data_type dt = dnnl::memory::data_type::f32) {
    return {{static_cast<dnnl::memory::dim>(n)}, dt, dnnl::memory::format_tag::a};
}

// y = eltwise ALG (alpha 0, beta 0) of x, f32, by oneDNN's eltwise_forward,
// as forward inference on a flat tensor.
inline std::vector<float> eltwise(Cpu& cpu, dnnl::algorithm alg, std::vector<float> x) {
    const auto md = vec(x.size());
    dnnl::eltwise_forward::primitive_desc pd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, alg, md, 0.f, 0.f), cpu.engine);
    std::vector<float> y(x.size());
    dnnl::memory src(md, cpu.engine, x.data()), dst(md, cpu.engine, y.data());
    dnnl::eltwise_forward(pd).execute(cpu.stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    cpu.stream.wait();
    std::printf("  (oneDNN %d.%d.%d, implementation %s)\n", dnnl_version()->major, dnnl_version()->minor,
                dnnl_version()->patch, pd.impl_info_str());
    return y;
}

}  // namespace repro
