// unary: y[i] = f(x[i]), one thread per element, computed in f32 by CUDA's
// single-precision functions and rounded once by the store; instantiated
// with In = Out. Threads past `count` do nothing. Under --use_fast_math
// (option fast_math) NVRTC replaces expf and logf by the __expf and
// __logf intrinsics: what that does to the contracts is for certify to show.
namespace kcs {

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below: e^-x never overflows,
// and exp's subnormal results come through for very negative x.
__device__ inline float sigmoid(float x) {
    if (x >= 0.0f) return 1.0f / (1.0f + expf(-x));
    const float e = expf(x);
    return e / (1.0f + e);
}

// x/2 * (1 + erf(x/sqrt 2)) written as x/2 * erfc(-x/sqrt 2), which does
// not cancel for x < 0. erfc's condition number (about 2t^2) amplifies the
// rounding of t = x/sqrt 2, so t is carried as t_hi + t_lo (the product's
// error by fmaf) and erfc(-t_hi - t_lo) taken to first order:
// erfc(-t_hi) + t_lo * 2/sqrt(pi) * exp(-t_hi^2).
__device__ inline float gelu(float x) {
    if (isinf(x)) return x > 0.0f ? x : -0.0f;
    const float c_hi = 0.70710677f;     // 1/sqrt(2) rounded to f32
    const float c_lo = 1.2101617e-08f;  // 1/sqrt(2) - c_hi
    const float t_hi = x * c_hi;
    const float t_lo = fmaf(x, c_hi, -t_hi) + x * c_lo;
    const float tail = erfcf(-t_hi);
    const float slope = 1.1283792f * expf(-t_hi * t_hi);  // 2/sqrt(pi) e^(-t^2)
    return 0.5f * x * (tail + t_lo * slope);
}

#define KCS_UNARY_KERNEL(NAME, EXPRESSION)                                   \
    template <typename In, typename Out>                                     \
    __global__ void unary_##NAME(const In* x, Out* y, index_t count) {       \
        const index_t i = global_index();                                    \
        if (i >= count) return;                                              \
        const float v = load(x, i);                                          \
        store(y, i, EXPRESSION);                                             \
    }

KCS_UNARY_KERNEL(exp, expf(v))
KCS_UNARY_KERNEL(log, logf(v))
KCS_UNARY_KERNEL(tanh, tanhf(v))
KCS_UNARY_KERNEL(erf, erff(v))
KCS_UNARY_KERNEL(gelu, gelu(v))
KCS_UNARY_KERNEL(sigmoid, sigmoid(v))
KCS_UNARY_KERNEL(rsqrt, rsqrtf(v))

}  // namespace kcs
