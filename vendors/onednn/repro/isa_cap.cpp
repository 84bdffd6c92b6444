// Does oneDNN's ISA cap (dnnl::set_max_cpu_isa, the adapter's isa=NAME)
// change the kernels, and their bits? oneDNN takes the cap once per process,
// so this program runs itself once per cap (`isa_cap --child NAME`): the
// child computes one fixed call of each primitive the adapter uses, with
// the adapter's descriptors, and prints per call the implementation oneDNN
// chose (impl_info_str, what ONEDNN_VERBOSE prints) and a digest of the
// output bits. The parent compares every cap below this CPU's own ISA with
// the uncapped run.
//
// It asserts, where the CPU has more than SSE4.1: under isa=sse41 every
// eltwise algorithm gets another implementation (the cap reaches the
// kernel). On a CPU whose ISA is AVX2 (the one FINDINGS.md describes) it
// also asserts which calls change their bits under sse41 and avx
// (kExpectedAvx2 below); on another CPU it prints them and does not judge.
// Usage: isa_cap [--child NAME|none]. Exit 0: as expected; 1: not; 2: error.
#include "repro.hpp"

#include <unistd.h>

#include <cinttypes>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

using dnnl::algorithm;
using dnnl::memory;

namespace {

using Dt = memory::data_type;
memory::desc md(const memory::dims& dims, Dt dt = Dt::f32) {
    static constexpr memory::format_tag kTags[] = {memory::format_tag::a, memory::format_tag::ab};
    return {dims, dt, kTags[dims.size() - 1]};
}

// Arguments -3 to 3 and -100 to 100, and the special values: every branch
// of the eltwise injectors (range reduction, clamps, NaN) is exercised.
std::vector<float> grid() {
    std::vector<float> x;
    for (int i = 0; i < 2048; ++i) x.push_back(-3.f + 6.f * static_cast<float>(i) / 2048);
    for (int i = 0; i < 2048; ++i) x.push_back(-100.f + 200.f * static_cast<float>(i) / 2048);
    for (float v : {0.f, -0.f, INFINITY, -INFINITY, std::nanf(""), 1e-40f, -1e-40f, 1.f}) x.push_back(v);
    return x;
}

// FNV-1a over the output bytes: equal digests are (for this purpose) equal bits.
std::uint64_t digest(const void* data, std::size_t bytes) {
    std::uint64_t h = 1469598103934665603ULL;
    for (std::size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ULL;
    return h;
}

struct Child {
    repro::Cpu cpu;
    // Runs pd on f32 inputs (the arguments in order) and prints "name impl digest".
    void run(const char* name, const dnnl::primitive_desc_base& pd, std::vector<std::pair<int, std::vector<float>*>> in,
             int out_arg, const memory::desc& out_md) {
        std::vector<std::uint8_t> out(out_md.get_size());
        std::unordered_map<int, memory> args;
        for (auto& [arg, data] : in) args.emplace(arg, memory(pd.query_md(dnnl::query::exec_arg_md, arg), cpu.engine, data->data()));
        args.emplace(out_arg, memory(out_md, cpu.engine, out.data()));
        dnnl::primitive(pd.get()).execute(cpu.stream, args);
        cpu.stream.wait();
        std::printf("%s %s %016" PRIx64 "\n", name, pd.impl_info_str(), digest(out.data(), out.size()));
    }
};

void child() {
    Child c;
    const auto& e = c.cpu.engine;
    std::vector<float> x = grid(), y = grid();
    for (float& v : y) v = -v / 2;
    const auto n = static_cast<memory::dim>(x.size());
    const auto flat = md({n});
    using Elt = dnnl::eltwise_forward;
    for (auto [name, alg] : {std::pair{"eltwise_exp", algorithm::eltwise_exp}, {"eltwise_log", algorithm::eltwise_log},
                             {"eltwise_tanh", algorithm::eltwise_tanh}, {"eltwise_gelu_erf", algorithm::eltwise_gelu_erf},
                             {"eltwise_logistic", algorithm::eltwise_logistic}})
        c.run(name, Elt::primitive_desc(Elt::desc(dnnl::prop_kind::forward_inference, alg, flat, 0.f, 0.f), e),
              {{DNNL_ARG_SRC, &x}}, DNNL_ARG_DST, flat);
    for (auto [name, alg] : {std::pair{"binary_add", algorithm::binary_add}, {"binary_max", algorithm::binary_max}})
        c.run(name, dnnl::binary::primitive_desc(dnnl::binary::desc(alg, flat, flat, flat), e),
              {{DNNL_ARG_SRC_0, &x}, {DNNL_ARG_SRC_1, &y}}, DNNL_ARG_DST, flat);
    // Rows of 1026 (the grid's first 4104 values as 4 rows): softmax, layer
    // normalization and the reductions along them.
    std::vector<float> rows(x.begin(), x.begin() + 4104);
    for (float& v : rows) v = std::isfinite(v) ? v / 10 : 0.f;
    const auto r = md({4, 1026}), r1 = md({4, 1});
    using Softmax = dnnl::softmax_v2_forward;
    c.run("softmax", Softmax::primitive_desc(Softmax::desc(dnnl::prop_kind::forward_inference,
                                                           algorithm::softmax_accurate, r, r, 1), e),
          {{DNNL_ARG_SRC, &rows}}, DNNL_ARG_DST, r);
    std::vector<float> gamma(1026, 1.5f), beta(1026, -0.25f);
    using Norm = dnnl::layer_normalization_forward;
    c.run("layernorm", Norm::primitive_desc(Norm::desc(dnnl::prop_kind::forward_inference, r, 1e-5f,
                                                       dnnl::normalization_flags::use_scale |
                                                           dnnl::normalization_flags::use_shift), e),
          {{DNNL_ARG_SRC, &rows}, {DNNL_ARG_SCALE, &gamma}, {DNNL_ARG_SHIFT, &beta}}, DNNL_ARG_DST, r);
    for (auto [name, alg] : {std::pair{"reduction_sum", algorithm::reduction_sum}, {"reduction_max", algorithm::reduction_max}})
        c.run(name, dnnl::reduction::primitive_desc(dnnl::reduction::desc(alg, r, r1, 0.f, 0.f), e),
              {{DNNL_ARG_SRC, &rows}}, DNNL_ARG_DST, r1);
    // matmul as C-ORD-03's case calls it: 7 rows of A [7, 128] times B [128, 128].
    std::vector<float> a(rows.begin(), rows.begin() + 7 * 128), b(128 * 128);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = x[i * 7 % 4096] / 10;
    std::vector<float> product(7 * 128);
    const std::string impl = repro::matmul(c.cpu, 7, 128, 128, a.data(), b.data(), product.data());
    std::printf("matmul %s %016" PRIx64 "\n", impl.c_str(), digest(product.data(), product.size() * 4));
    for (auto [name, dt] : {std::pair{"reorder_f32_bf16", Dt::bf16}, {"reorder_f32_f16", Dt::f16}})
        c.run(name, dnnl::reorder::primitive_desc(e, flat, e, md({n}, dt)), {{DNNL_ARG_FROM, &x}}, DNNL_ARG_TO, md({n}, dt));
}

// What one capped process printed: call -> (implementation, digest).
using Run = std::map<std::string, std::pair<std::string, std::string>>;

// This program's own file: /proc/self/exe read here, since in popen's shell
// it would name the shell.
std::string self() {
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 ? std::string(path, static_cast<std::size_t>(n)) : std::string();
}

Run run_capped(const std::string& cap) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on the chained operator+ of a literal and a returned string.
    std::string command = "'";
    command.append(self()).append("' --child ").append(cap);
    FILE* pipe = popen(command.c_str(), "r");
    Run run;
    if (!pipe) return run;
    char name[64], impl[64], hash[32];
    while (std::fscanf(pipe, "%63s %63s %31s", name, impl, hash) == 3) run[name] = {impl, hash};
    if (pclose(pipe) != 0) run.clear();
    return run;
}

// On an AVX2 CPU: the calls whose bits change under each cap. Seen on the
// AMD EPYC of FINDINGS.md, oneDNN 2.6.3.
// Without FMA (sse41, avx) the eltwise polynomials, softmax's exp, the
// layer normalization's variance and the gemm kernel round differently;
// binary, the reductions and the reorders keep their bits.
const std::set<std::string> kWithoutFma = {"eltwise_exp", "eltwise_gelu_erf", "eltwise_log", "eltwise_logistic",
                                           "eltwise_tanh", "layernorm", "matmul", "softmax"};
const std::map<std::string, std::set<std::string>> kExpectedAvx2 = {{"sse41", kWithoutFma}, {"avx", kWithoutFma}};

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--child") {
        if (std::string(argv[2]) != "none" && !repro::cap_isa(argv[2])) return 2;
        child();
        return 0;
    }
    if (argc != 1) {
        std::fprintf(stderr, "usage: isa_cap [--child NAME|none]\n");
        return 2;
    }
    const auto own = static_cast<unsigned>(dnnl::get_effective_cpu_isa());
    const Run base = run_capped("none");
    if (base.empty()) return 2;
    std::printf("oneDNN %d.%d.%d, this CPU's ISA: %s\n", dnnl_version()->major, dnnl_version()->minor,
                dnnl_version()->patch, repro::isa_name(dnnl::get_effective_cpu_isa()));
    bool ok = true;
    for (dnnl::cpu_isa isa : {dnnl::cpu_isa::sse41, dnnl::cpu_isa::avx, dnnl::cpu_isa::avx2, dnnl::cpu_isa::avx512_core,
                              dnnl::cpu_isa::avx512_core_vnni, dnnl::cpu_isa::avx512_core_bf16}) {
        const auto cap = static_cast<unsigned>(isa);
        if ((cap & own) != cap || cap == own) continue;  // not below this CPU's ISA: the cap changes nothing
        const std::string name = repro::isa_name(isa);
        const Run capped = run_capped(name);
        if (capped.size() != base.size()) return 2;
        std::set<std::string> changed;
        int eltwise_same_impl = 0;
        std::printf("isa=%s against no cap:\n", name.c_str());
        for (const auto& [call, result] : base) {
            const auto& [impl, hash] = capped.at(call);
            const bool same_bits = hash == result.second;
            if (!same_bits) changed.insert(call);
            if (call.rfind("eltwise_", 0) == 0 && impl == result.first) ++eltwise_same_impl;
            std::printf("  %-18s %-14s -> %-14s bits %s\n", call.c_str(), result.first.c_str(), impl.c_str(),
                        same_bits ? "equal" : "DIFFER");
        }
        if (isa == dnnl::cpu_isa::sse41 && eltwise_same_impl > 0) {
            std::printf("NOT AS EXPECTED: %d eltwise algorithms keep their implementation under isa=sse41\n",
                        eltwise_same_impl);
            ok = false;
        }
        if (repro::isa_name(dnnl::get_effective_cpu_isa()) != std::string("avx2") || !kExpectedAvx2.count(name)) continue;
        if (changed != kExpectedAvx2.at(name)) {
            std::printf("NOT AS EXPECTED: on an AVX2 CPU FINDINGS.md lists other calls whose bits change under isa=%s\n",
                        name.c_str());
            ok = false;
        }
    }
    if (std::string(repro::isa_name(dnnl::get_effective_cpu_isa())) != "avx2")
        std::printf("(the bits are judged on an AVX2 CPU alone, the one FINDINGS.md describes; printed here)\n");
    std::printf("%s\n", ok ? "AS EXPECTED" : "NOT AS EXPECTED");
    return ok ? 0 : 1;
}
