// oneDNN's softmax (softmax_v2_forward, softmax_accurate, f32, forward
// inference, over the rows of a 2-D tensor), as the onednn adapter maps
// softmax, alone:
//   nan   a row holding one NaN gives NaN there and 0 elsewhere, not NaN
//         everywhere                                       (C-EXC-01 softmax)
//   ftz   probabilities that should be subnormal are 0, and beyond that the
//         row is within 3 ulp of exp(x - max) / sum           (C-CMP-02 and C-CMP-01 softmax)
// Usage: softmax [--isa NAME] nan|ftz|all. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include "repro.hpp"

#include <string>

using repro::bits;

namespace {

std::vector<float> softmax(repro::Cpu& cpu, std::vector<float> x, long rows, long cols) {
    const dnnl::memory::desc md({rows, cols}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::ab);
    using Softmax = dnnl::softmax_v2_forward;
    Softmax::primitive_desc pd(
        Softmax::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, md, md, 1), cpu.engine);
    std::vector<float> y(x.size());
    dnnl::memory src(md, cpu.engine, x.data()), dst(md, cpu.engine, y.data());
    Softmax(pd).execute(cpu.stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}});
    cpu.stream.wait();
    std::printf("  (oneDNN %d.%d.%d softmax, implementation %s)\n", dnnl_version()->major, dnnl_version()->minor,
                dnnl_version()->patch, pd.impl_info_str());
    return y;
}

bool nan_row(repro::Cpu& cpu) {
    const long cols = 17;
    std::vector<float> x(cols);
    for (long j = 0; j < cols; ++j) x[j] = 0.1f * static_cast<float>(j) - 0.8f;
    x[0] = std::nanf("");
    const auto y = softmax(cpu, x, 1, cols);
    int not_nan = 0;
    for (float v : y) not_nan += !std::isnan(v);
    std::printf("row of 17 with +qNaN first: y[0] = 0x%08x, y[1] = 0x%08x, y[16] = 0x%08x; %d of 17 are not NaN\n",
                bits(y[0]), bits(y[1]), bits(y[16]), not_nan);
    return not_nan > 0;
}

bool ftz(repro::Cpu& cpu) {
    // Rows of 64: 0 first, then arguments from -80 to -104, whose
    // probabilities exp(x) / sum are normal down to about -87.3 and
    // subnormal below.
    const long cols = 64, rows = 16;
    std::vector<float> x(rows * cols);
    for (long r = 0; r < rows; ++r)
        for (long j = 0; j < cols; ++j)
            x[r * cols + j] = j == 0 ? 0.f : -80.f - (24.f * (j - 1) + r * 0.37f) / (cols - 1);
    const auto y = softmax(cpu, x, rows, cols);
    int subnormal = 0, flushed = 0, bad_normal = 0;
    double worst = 0;
    float worst_x = 0;
    for (long r = 0; r < rows; ++r) {
        double max = -INFINITY, sum = 0;
        for (long j = 0; j < cols; ++j) max = std::fmax(max, x[r * cols + j]);
        for (long j = 0; j < cols; ++j) sum += std::exp(static_cast<double>(x[r * cols + j]) - max);
        for (long j = 0; j < cols; ++j) {
            const float ref = static_cast<float>(std::exp(static_cast<double>(x[r * cols + j]) - max) / sum);
            const float got = y[r * cols + j];
            const double u = repro::ulps(got, ref);
            if (u > worst) worst = u, worst_x = x[r * cols + j];
            if (ref != 0 && ref < 0x1p-126f) {
                ++subnormal;
                flushed += got == 0.f;
            } else if (u > 3) {
                ++bad_normal;
            }
        }
    }
    std::printf("%d of %d subnormal probabilities are 0; %d normal ones exceed 3 ulp; worst %.0f ulp at x = 0x%08x\n",
                flushed, subnormal, bad_normal, worst, bits(worst_x));
    return flushed > 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (!repro::take_isa(argc, argv)) return 2;
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "nan" && mode != "ftz" && mode != "all") {
        std::fprintf(stderr, "usage: softmax nan|ftz|all\n");
        return 2;
    }
    repro::Cpu cpu;
    bool seen = false;
    if (mode != "ftz") {
        const bool s = nan_row(cpu);
        std::printf("%s: a NaN in a row leaves the row's other probabilities numbers\n", s ? "SEEN" : "NOT SEEN");
        seen = seen || s;
    }
    if (mode != "nan") {
        const bool s = ftz(cpu);
        std::printf("%s: subnormal probabilities are flushed to 0\n", s ? "SEEN" : "NOT SEEN");
        seen = seen || s;
    }
    return seen ? 0 : 1;
}
