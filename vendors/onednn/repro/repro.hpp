// What the oneDNN repros share: oneDNN's own API (dnnl.hpp) on the CPU
// engine, the ISA cap that `--isa NAME` (first on a repro's command line)
// sets, and the matmul as the adapter creates it (the bits of a float and
// ulps are device_common/repro/float_bits.hpp's). No KCS code.
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

#include "float_bits.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace repro {

// oneDNN's name of an ISA value (its dnnl_cpu_isa_t names), or "other".
inline const char* isa_name(dnnl::cpu_isa isa) {
    using dnnl::cpu_isa;
    switch (isa) {
        case cpu_isa::sse41: return "sse41";
        case cpu_isa::avx: return "avx";
        case cpu_isa::avx2: return "avx2";
        case cpu_isa::avx2_vnni: return "avx2_vnni";
        case cpu_isa::avx512_core: return "avx512_core";
        case cpu_isa::avx512_core_vnni: return "avx512_core_vnni";
        case cpu_isa::avx512_core_bf16: return "avx512_core_bf16";
        case cpu_isa::avx512_core_amx: return "avx512_core_amx";
        case cpu_isa::all: return "all";
        default: return "other";
    }
}

// Caps oneDNN's ISA (dnnl::set_max_cpu_isa), as the adapter's isa=NAME;
// it must come before the process's first primitive. Prints why on failure.
inline bool cap_isa(const std::string& name) {
    using dnnl::cpu_isa;
    for (cpu_isa isa : {cpu_isa::sse41, cpu_isa::avx, cpu_isa::avx2, cpu_isa::avx2_vnni, cpu_isa::avx512_core,
                        cpu_isa::avx512_core_vnni, cpu_isa::avx512_core_bf16, cpu_isa::avx512_core_amx,
                        cpu_isa::all})
        if (name == isa_name(isa)) {
            try {
                dnnl::set_max_cpu_isa(isa);
                return true;
            } catch (const dnnl::error& e) {
                std::fprintf(stderr, "set_max_cpu_isa(%s): %s\n", name.c_str(), e.what());
                return false;
            }
        }
    std::fprintf(stderr, "unknown ISA %s\n", name.c_str());
    return false;
}

// A leading `--isa NAME` of a repro's command line: caps the ISA and
// drops the pair from argc/argv, so that the repro's own arguments follow.
// False (after printing why) for a cap oneDNN refuses.
inline bool take_isa(int& argc, char**& argv) {
    if (argc < 3 || std::string(argv[1]) != "--isa") return true;
    const std::string cap = argv[2];
    if (!cap_isa(cap)) return false;
    argv[2] = argv[0];  // the program's name stays first
    argv += 2;
    argc -= 2;
    std::printf("(isa=%s: oneDNN's effective ISA is %s)\n", cap.c_str(), isa_name(dnnl::get_effective_cpu_isa()));
    return true;
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

// C = A B by oneDNN's matmul as the adapter creates it (plan.cpp): plain
// row-major f32 A [m, k], B [k, n], C [m, n] (`ab`), no bias, the given
// fpmath mode set explicitly; a new primitive per call (oneDNN's primitive
// cache makes that cheap), run and waited for. Returns the implementation.
inline std::string matmul(Cpu& cpu, dnnl::memory::dim m, dnnl::memory::dim k, dnnl::memory::dim n, const float* a,
                          const float* b, float* c, dnnl::fpmath_mode mode = dnnl::fpmath_mode::strict) {
    using dnnl::memory;
    const memory::desc a_md({m, k}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc b_md({k, n}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc c_md({m, n}, memory::data_type::f32, memory::format_tag::ab);
    dnnl::primitive_attr attr;
    attr.set_fpmath_mode(mode);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), attr, cpu.engine);
    // oneDNN's memory takes a non-const handle; it only reads A and B.
    dnnl::memory am(a_md, cpu.engine, const_cast<float*>(a)), bm(b_md, cpu.engine, const_cast<float*>(b)),
        cm(c_md, cpu.engine, c);
    dnnl::matmul(pd).execute(cpu.stream, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
    cpu.stream.wait();
    return pd.impl_info_str();
}

}  // namespace repro
