// unary: y[i] = f(x[i]), one work-item per element, computed in f32 and
// rounded once by the store; instantiated with IN = OUT. The global size is
// rounded up to whole work-groups; work-items past `count` do nothing.

#define UNARY_KERNEL(NAME, EXPRESSION)                                                    \
    __kernel void KERNEL(unary_##NAME)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong count) { \
        const size_t i = get_global_id(0);                                              \
        if (i >= count) return;                                                         \
        const float v = LOAD_IN(x, x_at + i);                                           \
        STORE_OUT(y, y_at + i, EXPRESSION);                                             \
    }

#ifndef KCS_UNARY_HELPERS
#define KCS_UNARY_HELPERS

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below: e^-x never overflows,
// and exp's subnormal results come through for very negative x.
inline float sigmoid(float x) {
    if (x >= 0.0f) return 1.0f / (1.0f + exp(-x));
    const float e = exp(x);
    return e / (1.0f + e);
}

// x/2 * (1 + erf(x/sqrt 2)) written as x/2 * erfc(-x/sqrt 2), which does
// not cancel for x < 0. erfc's condition number (about 2t^2) amplifies the
// rounding of t = x/sqrt 2, so t is carried as t_hi + t_lo (the product's
// error by fma) and erfc(-t_hi - t_lo) taken to first order:
// erfc(-t_hi) + t_lo * 2/sqrt(pi) * exp(-t_hi^2).
inline float gelu(float x) {
    if (isinf(x)) return x > 0.0f ? x : -0.0f;
    const float c_hi = 0.70710677f;       // 1/sqrt(2) rounded to f32
    const float c_lo = 1.2101617e-08f;    // 1/sqrt(2) - c_hi
    const float t_hi = x * c_hi;
    const float t_lo = fma(x, c_hi, -t_hi) + x * c_lo;
    const float tail = erfc(-t_hi);
    const float slope = 1.1283792f * exp(-t_hi * t_hi);  // 2/sqrt(pi) e^(-t^2)
    return 0.5f * x * (tail + t_lo * slope);
}

#endif  // KCS_UNARY_HELPERS

UNARY_KERNEL(exp, exp(v))
UNARY_KERNEL(log, log(v))
UNARY_KERNEL(tanh, tanh(v))
UNARY_KERNEL(erf, erf(v))
UNARY_KERNEL(gelu, gelu(v))
UNARY_KERNEL(sigmoid, sigmoid(v))
UNARY_KERNEL(rsqrt, rsqrt(v))

