#include "vector_evaluation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "double_evaluation.hpp"
#include "sleef_kernels.hpp"

namespace kcs::ref::unary_detail {
namespace {

using Kernel = SleefKernel;

double scalar_kernel(Kernel k, double x) {
    switch (k) {
        case Kernel::exp: return std::exp(x);
        case Kernel::log: return std::log(x);
        case Kernel::tanh: return std::tanh(x);
        case Kernel::erf: return std::erf(x);
        case Kernel::erfc: return std::erfc(x);
    }
    return NAN;
}

enum class Isa { avx512f, avx2, scalar };

Isa detect_isa() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return Isa::avx512f;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Isa::avx2;
    return Isa::scalar;
}

const Isa kIsa = detect_isa();

void apply(Kernel k, const double* in, double* out, std::size_t n) {
    std::size_t i = 0;
    switch (kIsa) {
        case Isa::avx512f: i = sleef_avx512f(k, in, out, n); break;
        case Isa::avx2: i = sleef_avx2(k, in, out, n); break;
        case Isa::scalar: break;
    }
    for (; i < n; ++i) out[i] = scalar_kernel(k, in[i]);
}

constexpr double kOneOverSqrt2 = 0.70710678118654752440;  // as in double_evaluation.cpp
constexpr std::size_t kBlock = 256;                           // the scratch arrays below

}  // namespace

// The formulas of double_evaluation.cpp, one block at a time.
void approximate_magnitudes(UnaryFunction function, const double* x, double* magnitude, std::size_t n) {
    double a[kBlock], b[kBlock];
    for (std::size_t start = 0; start < n; start += kBlock) {
        const std::size_t m = std::min(kBlock, n - start);
        const double* in = x + start;
        double* out = magnitude + start;
        switch (function) {
            case UnaryFunction::exp: apply(Kernel::exp, in, out, m); break;
            case UnaryFunction::log:
                apply(Kernel::log, in, out, m);
                for (std::size_t i = 0; i < m; ++i) out[i] = std::fabs(out[i]);
                break;
            case UnaryFunction::tanh:
            case UnaryFunction::erf:  // odd: evaluated on |x|
                for (std::size_t i = 0; i < m; ++i) a[i] = std::fabs(in[i]);
                apply(function == UnaryFunction::tanh ? Kernel::tanh : Kernel::erf, a, out, m);
                break;
            case UnaryFunction::gelu:
                // x > 0: x/2 (1 + erf(t)); x < 0: -x/2 erfc(-t); t = RN(x RN(1/sqrt 2)).
                for (std::size_t i = 0; i < m; ++i) a[i] = in[i] * kOneOverSqrt2;
                for (std::size_t i = 0; i < m; ++i) b[i] = -a[i];
                apply(Kernel::erf, a, a, m);
                apply(Kernel::erfc, b, b, m);
                for (std::size_t i = 0; i < m; ++i)
                    out[i] = in[i] > 0.0 ? 0.5 * in[i] * (1.0 + a[i]) : -0.5 * in[i] * b[i];
                break;
            case UnaryFunction::sigmoid:
                // e = exp(-|x|) <= 1; x >= 0: 1/(1 + e), x < 0: e/(1 + e).
                for (std::size_t i = 0; i < m; ++i) a[i] = -std::fabs(in[i]);
                apply(Kernel::exp, a, a, m);
                for (std::size_t i = 0; i < m; ++i) out[i] = (in[i] >= 0.0 ? 1.0 : a[i]) / (1.0 + a[i]);
                break;
            case UnaryFunction::rsqrt:
                for (std::size_t i = 0; i < m; ++i) out[i] = 1.0 / std::sqrt(in[i]);
                break;
        }
    }
}

}  // namespace kcs::ref::unary_detail

namespace kcs::ref::unary_detail {
namespace {

template <UnaryFunction F>
[[gnu::always_inline]] inline void decide_block(const std::uint32_t* x, std::uint32_t* y, std::uint8_t* decided, std::size_t n) {
    // Scratch per thread: kept between blocks (16 KiB; no stack arrays to fill).
    thread_local double xd[kF32Block], magnitude[kF32Block];
    for (std::size_t i = 0; i < n; ++i) xd[i] = std::bit_cast<float>(x[i]);
    approximate_magnitudes(F, xd, magnitude, n);
    // The decision without branches: signs and classes of sweep inputs alternate unpredictably.  // meaningless where x is not plain: not used there
    for (std::size_t i = 0; i < n; ++i) {
        const double v = xd[i], a = magnitude[i];
        // decide_from_double for f32 without branches; an infinite magnitude is +inf.
        const double width = 2.0 * kRelativeErrorBound * a + 2.0 * kAbsoluteErrorBound;
        const double below = a - width;
        const double lo = a == INFINITY ? a : below > 0.0 ? below : 0.0;
        const auto lo_bits = std::bit_cast<std::uint32_t>(static_cast<float>(lo));
        const auto hi_bits = std::bit_cast<std::uint32_t>(static_cast<float>(a + width));
        const bool by_double = plain_argument(F, v) & (lo_bits == hi_bits) & (a == a);
        std::uint32_t bits = lo_bits | (result_negative(F, v) ? 0x8000'0000u : 0u);
        std::uint8_t how = by_double ? kByDouble : kLeftToScalar;
        if constexpr (F == UnaryFunction::log || F == UnaryFunction::rsqrt) {
            const bool negative = v < 0.0;  // log(x < 0) = rsqrt(x < 0) = NaN, the canonical quiet NaN
            bits = negative ? 0x7FC0'0000u : bits;
            how = negative ? kBySpecialCase : how;
        }
        if constexpr (F == UnaryFunction::gelu) {
            const bool underflows = v <= -20.0;  // -0 in every format
            // RN(nextafter(x/2, +inf)): one double ulp toward +inf.
            const bool tiny = (v != 0.0) & (std::fabs(v) < 0x1p-30);
            const auto half = std::bit_cast<std::uint64_t>(0.5 * v);
            const double next = std::bit_cast<double>(v > 0.0 ? half + 1 : half - 1);
            bits = underflows ? 0x8000'0000u : tiny ? std::bit_cast<std::uint32_t>(static_cast<float>(next)) : bits;
            how = (underflows | tiny) ? kBySpecialCase : how;
        }
        y[i] = bits;
        decided[i] = how;
    }
}

}  // namespace

// One clone per instruction set (GCC picks at load time), so that the
// element loops vectorise as wide as the CPU allows.
[[gnu::target_clones("avx512f", "avx2", "default")]] void decide_f32_block(UnaryFunction function,
                                                                            const std::uint32_t* x,
                                                                            std::uint32_t* y, std::uint8_t* decided,
                                                                            std::size_t n) {
    switch (function) {
        case UnaryFunction::exp: return decide_block<UnaryFunction::exp>(x, y, decided, n);
        case UnaryFunction::log: return decide_block<UnaryFunction::log>(x, y, decided, n);
        case UnaryFunction::tanh: return decide_block<UnaryFunction::tanh>(x, y, decided, n);
        case UnaryFunction::erf: return decide_block<UnaryFunction::erf>(x, y, decided, n);
        case UnaryFunction::gelu: return decide_block<UnaryFunction::gelu>(x, y, decided, n);
        case UnaryFunction::sigmoid: return decide_block<UnaryFunction::sigmoid>(x, y, decided, n);
        case UnaryFunction::rsqrt: return decide_block<UnaryFunction::rsqrt>(x, y, decided, n);
    }
}

}  // namespace kcs::ref::unary_detail
