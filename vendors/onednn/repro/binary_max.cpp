// oneDNN's binary max (algorithm::binary_max, f32, dst = max(src0, src1)),
// as the onednn adapter maps elementwise.maximum, alone:
//   nan   max(NaN, x) is x, not NaN               (C-EXC-01 elementwise.maximum)
//   zero  max(+0, -0) is -0, not +0               (C-CMP-03 elementwise.maximum)
// IEEE 754-2019 maximum (9.6) returns NaN when either operand is NaN and
// orders -0 below +0; the catalog's elementwise.maximum is that operation.
// Usage: binary_max [--isa NAME] nan|zero|all. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include "repro.hpp"

#include <string>

using repro::bits;

int main(int argc, char** argv) {
    if (!repro::take_isa(argc, argv)) return 2;
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "nan" && mode != "zero" && mode != "all") {
        std::fprintf(stderr, "usage: binary_max nan|zero|all\n");
        return 2;
    }
    repro::Cpu cpu;
    const float nan = std::nanf("");
    // Pairs (a, b): 64 of them so that the vector body, not only a tail, runs.
    std::vector<float> a, b;
    for (int i = 0; i < 16; ++i) {
        a.insert(a.end(), {nan, 0.5f, 0.f, -0.f});
        b.insert(b.end(), {0.5f, nan, -0.f, 0.f});
    }
    const auto md = repro::vec(a.size());
    dnnl::binary::primitive_desc pd(dnnl::binary::desc(dnnl::algorithm::binary_max, md, md, md), cpu.engine);
    std::vector<float> y(a.size());
    dnnl::memory m0(md, cpu.engine, a.data()), m1(md, cpu.engine, b.data()), md_(md, cpu.engine, y.data());
    dnnl::binary(pd).execute(cpu.stream, {{DNNL_ARG_SRC_0, m0}, {DNNL_ARG_SRC_1, m1}, {DNNL_ARG_DST, md_}});
    cpu.stream.wait();
    std::printf("oneDNN %d.%d.%d binary_max, implementation %s\n", dnnl_version()->major, dnnl_version()->minor,
                dnnl_version()->patch, pd.impl_info_str());
    std::printf("max(NaN, 0.5) = 0x%08x, max(0.5, NaN) = 0x%08x, max(+0, -0) = 0x%08x, max(-0, +0) = 0x%08x\n",
                bits(y[0]), bits(y[1]), bits(y[2]), bits(y[3]));
    int nan_dropped = 0, neg_zero = 0;
    for (std::size_t i = 0; i < y.size(); i += 4) {
        nan_dropped += !std::isnan(y[i]) + !std::isnan(y[i + 1]);
        neg_zero += (bits(y[i + 2]) == 0x80000000u) + (bits(y[i + 3]) == 0x80000000u);
    }
    std::printf("%d of 32 pairs with a NaN give a number; %d of 32 pairs of +0 and -0 give -0\n", nan_dropped, neg_zero);
    const bool nan_seen = nan_dropped > 0, zero_seen = neg_zero > 0;
    if (mode != "zero") std::printf("%s: max(NaN, x) drops the NaN\n", nan_seen ? "SEEN" : "NOT SEEN");
    if (mode != "nan") std::printf("%s: max(+0, -0) is -0\n", zero_seen ? "SEEN" : "NOT SEEN");
    const bool seen = mode == "nan" ? nan_seen : mode == "zero" ? zero_seen : (nan_seen || zero_seen);
    return seen ? 0 : 1;
}
