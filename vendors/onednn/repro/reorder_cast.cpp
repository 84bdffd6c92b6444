// oneDNN's reorder between f32 and f16 / bf16 (dnnl::reorder of two flat
// tensors of 64 elements, default attributes), as the onednn adapter maps
// cast, alone:
//   negzero    -0 comes out +0 through f32->f16, f32->bf16, f16->f32 and
//              bf16->f32                             (C-PRC-04 cast)
//   subnormal  f32 subnormals come out 0 through f32->bf16, not the bf16
//              subnormal that rounding gives          (C-CMP-02 cast f32-bf16)
// Usage: reorder_cast [--isa NAME] negzero|subnormal|all. Exit 0: seen; 1: not; 2: usage.
#include "repro.hpp"

#include <string>

using dnnl::memory;

namespace {

repro::Cpu cpu;

// Reorder n elements from dtype `from` to `to`; buffers of raw bits.
template <typename To, typename From>
std::vector<To> reorder(const std::vector<From>& in, memory::data_type from, memory::data_type to) {
    std::vector<From> src(in);
    std::vector<To> dst(in.size());
    memory s(repro::vec(in.size(), from), cpu.engine, src.data()), d(repro::vec(in.size(), to), cpu.engine, dst.data());
    dnnl::reorder::primitive_desc pd(cpu.engine, s.get_desc(), cpu.engine, d.get_desc());
    dnnl::reorder(pd).execute(cpu.stream, s, d);
    cpu.stream.wait();
    std::printf("  (reorder %s, implementation %s)\n", from == memory::data_type::f32 ? "from f32" : "to f32",
                pd.impl_info_str());
    return dst;
}

bool negzero() {
    using dt = memory::data_type;
    const std::size_t n = 64;
    const auto f16 = reorder<std::uint16_t>(std::vector<float>(n, -0.f), dt::f32, dt::f16);
    const auto bf16 = reorder<std::uint16_t>(std::vector<float>(n, -0.f), dt::f32, dt::bf16);
    const auto from_f16 = reorder<float>(std::vector<std::uint16_t>(n, 0x8000), dt::f16, dt::f32);
    const auto from_bf16 = reorder<float>(std::vector<std::uint16_t>(n, 0x8000), dt::bf16, dt::f32);
    std::printf("-0 (0x80000000) -> f16 0x%04x, -> bf16 0x%04x; f16 -0 (0x8000) -> f32 0x%08x; bf16 -0 -> f32 0x%08x\n",
                f16[0], bf16[0], repro::bits(from_f16[0]), repro::bits(from_bf16[0]));
    std::printf("(-0 must stay -0: 0x8000 and 0x80000000)\n");
    return f16[0] != 0x8000 || bf16[0] != 0x8000 || repro::bits(from_f16[0]) != 0x80000000u ||
           repro::bits(from_bf16[0]) != 0x80000000u;
}

bool subnormal() {
    // f32 subnormals whose bf16 rounding is a nonzero bf16 subnormal.
    std::vector<float> x;
    for (std::uint32_t u : {0x00010000u, 0x00400000u, 0x007f0000u, 0x80010000u, 0x00008000u, 0x00018000u})
        x.push_back(repro::from_bits(u));
    while (x.size() < 64) x.push_back(repro::from_bits(0x00010000u));
    const auto y = reorder<std::uint16_t>(x, memory::data_type::f32, memory::data_type::bf16);
    int flushed = 0;
    for (std::size_t i = 0; i < 6; ++i) {
        const std::uint32_t u = repro::bits(x[i]);
        // round to nearest even on the upper 16 bits
        const std::uint16_t rn = static_cast<std::uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
        std::printf("  f32 0x%08x -> bf16 0x%04x (RN: 0x%04x)\n", u, y[i], rn);
        flushed += (y[i] & 0x7fffu) == 0 && (rn & 0x7fffu) != 0;
    }
    std::printf("%d of 6 f32 subnormals with a nonzero bf16 rounding come out zero\n", flushed);
    return flushed > 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (!repro::take_isa(argc, argv)) return 2;
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "negzero" && mode != "subnormal" && mode != "all") {
        std::fprintf(stderr, "usage: reorder_cast negzero|subnormal|all\n");
        return 2;
    }
    std::printf("oneDNN %d.%d.%d\n", dnnl_version()->major, dnnl_version()->minor, dnnl_version()->patch);
    bool seen = false;
    if (mode != "subnormal") {
        const bool s = negzero();
        std::printf("%s: -0 becomes +0 through the f16/bf16 reorders\n", s ? "SEEN" : "NOT SEEN");
        seen = seen || s;
    }
    if (mode != "negzero") {
        const bool s = subnormal();
        std::printf("%s: f32 -> bf16 flushes subnormals to zero\n", s ? "SEEN" : "NOT SEEN");
        seen = seen || s;
    }
    return seen ? 0 : 1;
}
