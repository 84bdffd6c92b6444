// XNNPACK's exp-based kernels under its own flush-to-zero, as the xnnpack
// adapter calls them, alone: normal results below about 2^10 FLT_MIN
// (x below about -80.4) come out up to ~40 % off.
//   sigmoid  sigmoid(x) for x in [-87.3, -78] against RN(sigmoid(x)), 8 ulp   (C-CMP-01 unary.sigmoid)
//   softmax  softmax of rows [0, z], z in [-87.3, -78], against RN, 3 ulp     (C-CMP-01, C-PRC-02 softmax)
// Both compute exp(z) = s + (t * s) * p with s = 2^n
// (src/f32-vsigmoid/gen/vsigmoid-avx2-rr1-p5-div-x40.c,
// src/f32-raddstoreexpminusmax/gen/sse2-rr2-p5-x20-acc2.c: "vt =
// _mm_mul_ps(vt, vs)"). For n from -126 to about -116, t * s (|t| <=
// ln2 / 2) is subnormal for some or all t, and xnn_run_operator runs every
// kernel with PTHREADPOOL_FLAG_DISABLE_DENORMALS (src/operator-run.c): FTZ
// flushes it to 0, and exp(z) comes out as the bare power of two s.
// ([-78, 16] is swept too, for comparison.)
// On a CPU with AVX-512 (e.g. AMD Zen 4) XNNPACK runs another sigmoid
// kernel, which keeps these results but returns NaN for finite arguments
// from about |x| = 2^89 on (both signs; sigmoid is 0 or 1 there): sigmoid
// mode also evaluates +-2^e and +-1.5 * 2^e for e = 0..127 and counts NaN.
// Usage: exp_ftz sigmoid|softmax. Exit 0: a normal result beyond the
// bound (or, for sigmoid, a NaN from a finite argument) is seen; 1: not;
// 2: usage.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "repro.hpp"

using repro::bits;

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "sigmoid" && mode != "softmax") {
        std::fprintf(stderr, "usage: exp_ftz sigmoid|softmax\n");
        return 2;
    }
    repro::init();
    const bool sigmoid = mode == "sigmoid";
    const double bound = sigmoid ? 8 : 3;  // the catalog's C-CMP-01 floors for sigmoid and softmax
    // Each result against RN of the exact value; normal results alone
    // (subnormal ones are judged as flushed under subnormals: flush).
    struct Tally {
        int beyond = 0, powers_of_two = 0;
        double worst = 0;
        float x = 0, got = 0, want = 0;
    };
    const auto tally = [&](float from, float to) {
        std::vector<float> z;
        for (int i = 0; from + static_cast<float>(i) / 256 <= to; ++i) z.push_back(from + static_cast<float>(i) / 256);
        std::vector<float> got(z.size());
        if (sigmoid) {
            got = repro::sigmoid(z);
        } else {
            std::vector<float> rows;
            for (const float x : z) rows.insert(rows.end(), {0.0f, x});
            const auto y = repro::softmax(rows, 2);
            for (std::size_t i = 0; i < z.size(); ++i) got[i] = y[2 * i + 1];
        }
        Tally t;
        for (std::size_t i = 0; i < z.size(); ++i) {
            const double e = std::exp(static_cast<double>(z[i]));
            const float want = static_cast<float>(e / (1.0 + e));  // sigmoid(z) = softmax([0, z])[1]
            const double d = repro::ulps(got[i], want);
            if (want < FLT_MIN || d <= bound) continue;
            ++t.beyond;
            int exponent = 0;
            t.powers_of_two += std::frexp(got[i], &exponent) == 0.5f;
            if (d > t.worst) t.worst = d, t.x = z[i], t.got = got[i], t.want = want;
        }
        std::printf(
            "XNNPACK %s over %zu arguments in [%g, %g]: %d normal results beyond %.0f ulp, %d of them an "
            "exact power of two\n",
            mode.c_str(), z.size(), from, to, t.beyond, bound, t.powers_of_two);
        if (t.beyond > 0)
            std::printf("  worst at x = %.7g (0x%08x): got %.9g (0x%08x), RN %.9g (0x%08x), %.0f ulp\n", t.x, bits(t.x),
                        t.got, bits(t.got), t.want, bits(t.want), t.worst);
        return t;
    };
    const Tally near_min = tally(-87.3f, -78.0f);
    tally(-78.0f, 16.0f);  // the rest of the range, for comparison: within the bound
    const int beyond = near_min.beyond;
    if (!sigmoid)
        return repro::verdict(beyond > 0, "exp near FLT_MIN loses its mantissa under XNNPACK's flush-to-zero");

    std::vector<float> large;
    for (int e = 0; e <= 127; ++e)
        for (const float m : {1.0f, -1.0f, 1.5f, -1.5f}) large.push_back(std::ldexp(m, e));
    const auto y = repro::sigmoid(large);
    int nan = 0;
    float smallest_nan = INFINITY;
    for (std::size_t i = 0; i < large.size(); ++i)
        if (std::isnan(y[i])) ++nan, smallest_nan = std::min(smallest_nan, std::fabs(large[i]));
    std::printf("XNNPACK sigmoid of +-2^e, +-1.5*2^e for e = 0..127: %d of %zu NaN", nan, large.size());
    if (nan) std::printf(", the smallest |x| %g", smallest_nan);
    std::printf("\n");
    return repro::verdict(beyond > 0 || nan > 0,
                          "sigmoid: exp near FLT_MIN loses its mantissa under XNNPACK's flush-to-zero, or a finite "
                          "argument gives NaN");
}
