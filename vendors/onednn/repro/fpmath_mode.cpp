// Does the fpmath mode (primitive_attr::set_fpmath_mode, the adapter's
// fpmath=strict|bf16|f16|any) change oneDNN's f32 matmul? The mode allows
// oneDNN to round f32 inputs to bf16 or f16 inside the computation; it does
// not oblige it. For three shapes (C-ORD-03's 7 x 128 x 128 among them)
// this runs the matmul under each mode, as the adapter creates it, and
// prints the implementation (what ONEDNN_VERBOSE names), whether the bits
// equal strict's, and how far the result is from the exact product of the
// f32 inputs and from that of the inputs rounded to bf16 and to f16: a
// kernel that rounds its inputs lands near the latter.
//
// oneDNN 2.6 computes in bf16 and f16 only from AVX-512 (avx512_core) on
// (README.md); below avx512_core the expectation is that every mode gives
// strict's implementation and bits, which is asserted. On a CPU
// with AVX-512 the results are printed and not judged (exit 77, a skip).
// Usage: fpmath_mode [--isa NAME]. Exit 0: as expected; 1: not; 77: not judged here.
#include "repro.hpp"

#include <random>
#include <tuple>

namespace {

float to_bf16(float x) {  // round to nearest even, as oneDNN's own conversion of normal numbers
    const std::uint32_t u = repro::bits(x);
    return repro::from_bits((u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u);
}
float to_f16(float x) { return static_cast<float>(static_cast<_Float16>(x)); }

// The largest |c - exact product of round(a), round(b)|, relative to the
// product's largest magnitude.
double distance(const std::vector<float>& c, const std::vector<float>& a, const std::vector<float>& b, int m, int k,
                int n, float (*round)(float)) {
    double worst = 0, scale = 0;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double exact = 0;
            for (int p = 0; p < k; ++p) exact += static_cast<double>(round(a[i * k + p])) * round(b[p * n + j]);
            worst = std::fmax(worst, std::fabs(c[i * n + j] - exact));
            scale = std::fmax(scale, std::fabs(exact));
        }
    return worst / scale;
}

float as_is(float x) { return x; }

}  // namespace

int main(int argc, char** argv) {
    if (!repro::take_isa(argc, argv)) return 2;
    if (argc != 1) {
        std::fprintf(stderr, "usage: fpmath_mode [--isa NAME]\n");
        return 2;
    }
    repro::Cpu cpu;
    const auto isa = dnnl::get_effective_cpu_isa();
    const bool judged = (static_cast<unsigned>(isa) & static_cast<unsigned>(dnnl::cpu_isa::avx512_core)) !=
                        static_cast<unsigned>(dnnl::cpu_isa::avx512_core);
    std::printf("oneDNN %d.%d.%d, effective ISA %s\n", dnnl_version()->major, dnnl_version()->minor,
                dnnl_version()->patch, repro::isa_name(isa));
    const std::pair<const char*, dnnl::fpmath_mode> modes[] = {{"strict", dnnl::fpmath_mode::strict},
                                                               {"bf16", dnnl::fpmath_mode::bf16},
                                                               {"f16", dnnl::fpmath_mode::f16},
                                                               {"any", dnnl::fpmath_mode::any}};
    int changed = 0, runs = 0;
    for (auto [m, k, n] : {std::tuple{7, 128, 128}, {64, 64, 64}, {256, 256, 256}}) {
        std::mt19937 engine(1);
        std::normal_distribution<float> normal;
        std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n));
        for (float& v : a) v = normal(engine);
        for (float& v : b) v = normal(engine);
        std::vector<float> strict(static_cast<std::size_t>(m * n)), c(strict.size());
        const std::string strict_impl = repro::matmul(cpu, m, k, n, a.data(), b.data(), strict.data());
        for (const auto& [name, mode] : modes) {
            runs += mode != dnnl::fpmath_mode::strict;
            const std::string impl = repro::matmul(cpu, m, k, n, a.data(), b.data(), c.data(), mode);
            const bool same = std::memcmp(c.data(), strict.data(), c.size() * 4) == 0;
            changed += !same || impl != strict_impl;
            std::printf("%3d x %3d x %3d fpmath %-6s: %s, bits %s strict's; relative distance to the exact product "
                        "of f32 inputs %.1e, of bf16-rounded %.1e, of f16-rounded %.1e\n",
                        m, k, n, name, impl.c_str(), same ? "equal" : "DIFFER from", distance(c, a, b, m, k, n, as_is),
                        distance(c, a, b, m, k, n, to_bf16), distance(c, a, b, m, k, n, to_f16));
        }
    }
    if (!judged) {
        std::printf("NOT JUDGED: this CPU has AVX-512, where oneDNN may round to bf16; %d mode runs differ from strict\n",
                    changed);
        return 77;
    }
    std::printf("%s: %d of %d bf16, f16 and any runs differ from strict in implementation or bits "
                "(expected none without AVX-512)\n", changed ? "NOT AS EXPECTED" : "AS EXPECTED", changed, runs);
    return changed ? 1 : 0;
}
