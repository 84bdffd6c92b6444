// The eltwise behaviours behind the onednn adapter's FAILs (FINDINGS.md),
// by oneDNN's eltwise_forward alone (f32, forward inference, alpha = beta
// = 0, as the adapter calls it), against a double-precision reference
// rounded to float:
//   exp-nan    exp(NaN) is not NaN                     (C-EXC-01 unary.exp)
//   gelu-inf   gelu_erf(-inf) is NaN, not -0           (C-EXC-01/C-CMP-03 unary.gelu)
//   log-one    log(1) is not 0; log near 1 is off by more than 3 ulp
//                                                      (C-CMP-03/C-CMP-01 unary.log)
//   gelu-ulp   gelu_erf(x) for x below about -5 is off by more than 33 ulp
//                                                      (C-CMP-01 unary.gelu)
//   ftz        exp and logistic flush subnormal results to zero, and are
//              within 3 ulp (8 for logistic) wherever the result is normal
//                                                      (C-CMP-02 and C-CMP-01 exp, sigmoid)
// Usage: eltwise_specials [--isa NAME] MODE (or `all`, which prints each and exits 0 when any is seen)
// Exit 0: the behaviour is seen; 1: it is not; 2: usage error.
#include "repro.hpp"

#include <string>
#include <tuple>

using dnnl::algorithm;
using repro::bits;

namespace {

repro::Cpu cpu;

bool exp_nan() {
    const float nan = std::nanf("");
    const auto y = repro::eltwise(cpu, algorithm::eltwise_exp, {nan, -nan, 1.f});
    std::printf("exp(+qNaN) = 0x%08x, exp(-qNaN) = 0x%08x (std::exp: NaN)\n", bits(y[0]), bits(y[1]));
    return !std::isnan(y[0]) || !std::isnan(y[1]);
}

bool gelu_inf() {
    const float inf = INFINITY;
    const auto y = repro::eltwise(cpu, algorithm::eltwise_gelu_erf, {-inf, inf, -1e30f});
    std::printf("gelu_erf(-inf) = 0x%08x (0.5 x erfc(-x/sqrt 2) -> -0), gelu_erf(+inf) = 0x%08x, "
                "gelu_erf(-1e30) = 0x%08x\n", bits(y[0]), bits(y[1]), bits(y[2]));
    return std::isnan(y[0]);
}

bool log_one() {
    std::vector<float> x;
    for (float v = 1.f; x.size() < 64; v = std::nextafter(v, 2.f)) x.push_back(v);
    for (float v = std::nextafter(1.f, 0.f); x.size() < 128; v = std::nextafter(v, 0.f)) x.push_back(v);
    for (float v : {0.9f, 0.99f, 1.01f, 1.1f, 2.f, 0.5f, 1e-3f, 1e3f}) x.push_back(v);
    const auto y = repro::eltwise(cpu, algorithm::eltwise_log, x);
    int over = 0;
    double worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double u = repro::ulps(y[i], static_cast<float>(std::log(static_cast<double>(x[i]))));
        over += u > 3;
        if (u > worst) worst = u, at = i;
    }
    std::printf("log(1) = 0x%08x (%g); log(0x%08x) = 0x%08x, RN(log) = 0x%08x\n", bits(y[0]), y[0],
                bits(x[1]), bits(y[1]), bits(static_cast<float>(std::log(static_cast<double>(x[1])))));
    for (std::size_t i = x.size() - 8; i < x.size(); ++i)
        std::printf("  log(%g) = 0x%08x, RN(log) = 0x%08x, %.0f ulp\n", x[i], bits(y[i]),
                    bits(static_cast<float>(std::log(static_cast<double>(x[i])))),
                    repro::ulps(y[i], static_cast<float>(std::log(static_cast<double>(x[i])))));
    std::printf("%d of %zu arguments within 64 ulp of 1 (and 8 others) exceed 3 ulp; worst %.0f ulp at x = 0x%08x\n",
                over, x.size(), worst, bits(x[at]));
    return y[0] != 0.f && over > 0;
}

double gelu_ref(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }

bool gelu_ulp() {
    std::vector<float> x;
    for (float v = -13.f; v <= 3.f; v += 0.25f) x.push_back(v);
    x.push_back(repro::from_bits(0xc1428fde));  // KCS's worst argument, -12.16
    const auto y = repro::eltwise(cpu, algorithm::eltwise_gelu_erf, x);
    int over = 0;
    float first = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const float ref = static_cast<float>(gelu_ref(x[i]));
        const double u = repro::ulps(y[i], ref);
        if (u > 33 && !over++) first = x[i];
        if (std::fmod(x[i], 2.f) == 0.f || i + 1 == x.size())
            std::printf("  gelu_erf(%g) = %g (0x%08x), RN(0.5 x erfc(-x/sqrt 2)) = %g (0x%08x): %.0f ulp\n", x[i],
                        y[i], bits(y[i]), ref, bits(ref), u);
    }
    std::printf("%d of %zu arguments in [-13, 3] exceed 33 ulp, the first at x = %g\n", over, x.size(), first);
    return over > 0;
}

bool ftz() {
    bool seen = false, large_normal = false;
    for (auto [alg, name, bound] : {std::tuple{algorithm::eltwise_exp, "exp", 3.0},
                                    std::tuple{algorithm::eltwise_logistic, "logistic", 8.0}}) {
        std::vector<float> x;
        for (float v = -104.f; v <= 4.f; v += 1.f / 64) x.push_back(v);
        x.push_back(-88.5f);
        x.push_back(repro::from_bits(0xc2ae357f));  // KCS's worst argument, -87.10
        const auto y = repro::eltwise(cpu, alg, x);
        int flushed = 0, subnormal = 0, bad_normal = 0;
        float lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double d = x[i];
            const float ref = static_cast<float>(alg == algorithm::eltwise_exp ? std::exp(d) : 1 / (1 + std::exp(-d)));
            if (ref != 0 && std::fabs(ref) < 0x1p-126f) {
                ++subnormal;
                flushed += y[i] == 0.f;
            } else if (repro::ulps(y[i], ref) > bound) {
                if (!bad_normal || i + 3 >= x.size())
                    std::printf("  %s(%.9g) = 0x%08x, RN = 0x%08x: %.0f ulp\n", name, x[i], bits(y[i]), bits(ref),
                                repro::ulps(y[i], ref));
                ++bad_normal;
                lo = std::fmin(lo, x[i]), hi = std::fmax(hi, x[i]);
            }
        }
        const std::size_t k = x.size() - 2;
        std::printf("%s(-88.5) = 0x%08x (RN: 0x%08x); %s(0x%08x) = 0x%08x (RN: 0x%08x)\n", name, bits(y[k]),
                    bits(static_cast<float>(std::exp(-88.5))), name, bits(x[k + 1]), bits(y[k + 1]),
                    bits(static_cast<float>(std::exp(static_cast<double>(x[k + 1])))));
        std::printf("%s: %d of %d subnormal results are 0; %d normal results exceed %.0f ulp (x in [%g, %g])\n",
                    name, flushed, subnormal, bad_normal, bound, lo, hi);
        seen = seen || flushed > 0;
        large_normal = large_normal || bad_normal > 0;
    }
    if (large_normal) std::printf("(normal results beyond the bound too: not only the flush)\n");
    return seen;
}

}  // namespace

int main(int argc, char** argv) {
    if (!repro::take_isa(argc, argv)) return 2;
    const std::string mode = argc > 1 ? argv[1] : "";
    struct Mode { const char* name; bool (*run)(); const char* what; };
    const Mode modes[] = {{"exp-nan", exp_nan, "exp(NaN) is not NaN"},
                          {"gelu-inf", gelu_inf, "gelu_erf(-inf) is NaN"},
                          {"log-one", log_one, "log(1) is not 0, and log near 1 exceeds 3 ulp"},
                          {"gelu-ulp", gelu_ulp, "gelu_erf exceeds 33 ulp for negative arguments"},
                          {"ftz", ftz, "exp and logistic flush subnormal results to 0"}};
    bool any = false, known = false;
    for (const Mode& m : modes)
        if (mode == "all" || mode == m.name) {
            known = true;
            std::printf("== %s\n", m.name);
            const bool seen = m.run();
            std::printf("%s: %s\n", seen ? "SEEN" : "NOT SEEN", m.what);
            any = any || seen;
        }
    if (!known) {
        std::fprintf(stderr, "usage: eltwise_specials exp-nan|gelu-inf|log-one|gelu-ulp|ftz|all\n");
        return 2;
    }
    return any ? 0 : 1;
}
