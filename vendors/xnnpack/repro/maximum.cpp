// XNNPACK's maximum (xnn_create_maximum_nd_f32), as the xnnpack adapter
// maps elementwise.maximum, alone:
//   nan   maximum(x, NaN) is NaN but maximum(NaN, x) is x  (C-EXC-01 elementwise.maximum)
//   zero  maximum(+0, -0) is -0                            (C-CMP-03 elementwise.maximum)
// IEEE 754-2019 maximum (9.6) returns NaN when either operand is NaN and
// orders -0 below +0; the catalog's elementwise.maximum is that operation.
// XNNPACK's micro-kernel is x86 MAXPS, _mm256_max_ps(va, vb)
// (src/f32-vbinary/gen/vmax-avx-x16.c), which returns its second operand
// when either is NaN or both are zeros.
// Usage: maximum nan|zero. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include <string>

#include "repro.hpp"

using repro::bits;

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "nan" && mode != "zero") {
        std::fprintf(stderr, "usage: maximum nan|zero\n");
        return 2;
    }
    repro::init();
    const float nan = std::nanf("");
    // 16 copies of four pairs: the vector body runs, not only the tail.
    std::vector<float> a, b;
    for (int i = 0; i < 16; ++i) {
        a.insert(a.end(), {nan, 0.5f, 0.f, -0.f});
        b.insert(b.end(), {0.5f, nan, -0.f, 0.f});
    }
    const auto y = repro::binary_f32(repro::Binary::maximum, a, b);
    std::printf(
        "XNNPACK maximum_nd_f32: max(NaN, 0.5) = 0x%08x, max(0.5, NaN) = 0x%08x, max(+0, -0) = 0x%08x, "
        "max(-0, +0) = 0x%08x\n",
        bits(y[0]), bits(y[1]), bits(y[2]), bits(y[3]));
    int nan_dropped = 0, neg_zero = 0;
    for (std::size_t i = 0; i < y.size(); i += 4) {
        nan_dropped += !std::isnan(y[i]) + !std::isnan(y[i + 1]);
        neg_zero += (bits(y[i + 2]) == 0x80000000u) + (bits(y[i + 3]) == 0x80000000u);
    }
    std::printf("%d of 32 pairs with a NaN give a number; %d of 32 pairs of +0 and -0 give -0\n", nan_dropped,
                neg_zero);
    if (mode == "nan") return repro::verdict(nan_dropped > 0, "maximum drops a NaN in its first operand");
    return repro::verdict(neg_zero > 0, "maximum(+0, -0) is -0");
}
