// unary: y[i] = f(x[i]), one invocation per element, computed in f32 and
// rounded once by the store; instantiated with IN = OUT. Invocations past
// `count` do nothing. Define FUNCTION = exp, log, tanh, erf, gelu, sigmoid
// or rsqrt.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer XBuffer { in_t x[]; };
layout(set = 0, binding = 1) writeonly buffer YBuffer { out_t y[]; };
layout(push_constant) uniform Params { uint x_at; uint y_at; uint count; } p;

// ---- f32 erf and erfc (also compiled as C++ by the accuracy test) ----
// GLSL has neither. The structure is fdlibm's s_erff.c (erf(x) = x + x P(x^2)
// near 0, erf(1 + s) - erf(1) by a polynomial near 1, and erfc(x) =
// exp(-x^2 - 0.5625 + R(1/x^2)) / x above 1.25); the polynomials are our own
// minimax fits for f32 (each within 3.2e-9 of the function, relative to the
// result). The built-in exp may be off by 3 + 2|x| ulp (Vulkan's bound), too
// much in the tail, so erfc uses erf_exp below. Every multiply-add is
// `precise`: the same rounding as the test, fp_contract off.

// e^a, about 1 ulp: a = k ln2 + r, |r| <= ln2/2, then a degree-7 Taylor
// polynomial. LN2_HI has its low 9 bits zero, so k * LN2_HI is exact.
float erf_exp(float a) {
    precise const float k = floor(a * 1.44269502f + 0.5f);
    precise const float r = (a - k * 0.693145752f) - k * 1.42860677e-06f;
    precise const float q = 1.0f + r * (0.5f + r * (0.166666672f + r * (0.0416666679f + r * (0.00833333377f
                            + r * (0.00138888892f + r * 0.000198412701f)))));
    precise const float e = 1.0f + r * q;
    return ldexp(e, int(k));
}

// erf(x)/x - 1 for |x| < 0.84375, in z = x^2.
float erf_small(float z) {
    precise const float r = 0.128379166f + z * (-0.376126289f + z * (0.112836152f + z * (-0.0268544517f
                            + z * (0.00518725161f + z * (-0.00079659553f + z * 7.52115884e-05f)))));
    return r;
}

// erf(1) rounded to f32, and erf(1 + s) - ERF_ONE for s in [-0.15625, 0.25).
const float ERF_ONE = 0.842700779f;
float erf_near_one(float s) {
    precise const float r = 1.35095473e-08f + s * (0.415107489f + s * (-0.415107459f + s * (0.138370976f
                            + s * (0.0691770986f + s * (-0.0692725107f + s * (0.00499007758f
                            + s * (0.0161992665f + s * -0.00972606614f)))))));
    return r;
}

// erfc(x) for x in [1.25, 10.1): x erfc(x) = exp(-x^2 - 0.5625 + R(1/x^2)).
// x^2 = z^2 + (x - z)(x + z) with z = x cut to 11 significant bits, so that
// -z^2 - 0.5625 is exact and e^(-x^2) loses nothing to the rounding of x^2.
float erfc_tail(float x) {
    const float s = 1.0f / (x * x);
    precise float r;
    if (x < 2.85714293f) {  // 1/0.35
        r = -0.00990498997f + s * (-0.498350799f + s * (0.594040751f + s * (-1.18159449f + s * (2.48303342f
            + s * (-4.43164349f + s * (5.94412756f + s * (-5.44159746f + s * (2.99173975f + s * -0.74023664f))))))));
    } else {
        r = -0.00986495614f + s * (-0.499996781f + s * (0.624696255f + s * (-1.52681124f + s * (5.08889008f
            + s * (-17.7378998f + s * (47.8510475f + s * -65.9187622f))))));
    }
    const float z = uintBitsToFloat(floatBitsToUint(x) & 0xffffe000u);
    precise const float e = erf_exp(-z * z - 0.5625f) * erf_exp((z - x) * (z + x) + r);
    return e / x;
}

float kcs_erf(float x) {
    if (isnan(x)) return x + x;
    const float ax = abs(x);
    if (ax < 0.84375f) {
        precise const float r = x + x * erf_small(x * x);
        return r;
    }
    float e;  // erf(|x|)
    if (ax < 1.25f) {
        e = ERF_ONE + erf_near_one(ax - 1.0f);
    } else if (ax < 4.0f) {
        e = 1.0f - erfc_tail(ax);
    } else {
        e = 1.0f;  // erfc(4) < 2^-25: rounds to 1
    }
    return x < 0.0f ? -e : e;
}

float kcs_erfc(float x) {
    if (isnan(x)) return x + x;
    const float ax = abs(x);
    if (ax < 0.84375f) {
        precise const float r = x * erf_small(x * x);  // erf(x) - x
        if (x < 0.25f) {
            precise const float e = 1.0f - (x + r);
            return e;
        }
        precise const float e = 0.5f - (r + (x - 0.5f));  // x - 0.5 is exact: no cancellation
        return e;
    }
    if (ax < 1.25f) {
        const float q = erf_near_one(ax - 1.0f);
        return x > 0.0f ? (1.0f - ERF_ONE) - q : 1.0f + (ERF_ONE + q);  // 1 - ERF_ONE is exact
    }
    if (ax < 10.1f) {  // erfc(10.1) is below the smallest subnormal
        const float t = erfc_tail(ax);
        return x > 0.0f ? t : 2.0f - t;
    }
    return x > 0.0f ? 0.0f : 2.0f;
}
// ---- end of erf and erfc ----

// 1 / (1 + e^-x) for x >= 0, e^x / (1 + e^x) below: e^-x never overflows,
// and exp's subnormal results come through for very negative x.
float sigmoid(float x) {
    if (x >= 0.0) return 1.0 / (1.0 + exp(-x));
    const float e = exp(x);
    return e / (1.0 + e);
}

// x/2 * (1 + erf(x/sqrt 2)) written as x/2 * erfc(-x/sqrt 2), which does
// not cancel for x < 0. erfc's condition number (about 2t^2) amplifies the
// rounding of t = x/sqrt 2, so t is carried as t_hi + t_lo (the product's
// error, below) and erfc(-t_hi - t_lo) taken to first order:
// erfc(-t_hi) + t_lo * 2/sqrt(pi) * exp(-t_hi^2).

// The rounding error of p = a * b, exactly (Dekker): a and b split into
// 12-bit halves (Veltkamp, 4097 = 2^12 + 1) whose products are exact. fma
// would give it in one step, but Vulkan lets GLSL's fma be a multiply and an
// add (FINDINGS.md: gelu on lavapipe failed by 143 ulp with it). Needs
// |a|, |b| < 2^115, so that a * 4097 cannot overflow.
float product_error(float a, float b, float p) {
    precise const float as = a * 4097.0, bs = b * 4097.0;
    precise const float a_hi = as - (as - a), b_hi = bs - (bs - b);
    precise const float a_lo = a - a_hi, b_lo = b - b_hi;
    precise const float e = (((a_hi * b_hi - p) + a_hi * b_lo) + a_lo * b_hi) + a_lo * b_lo;
    return e;
}

float gelu(float x) {
    if (isinf(x)) return x > 0.0 ? x : -0.0;
    const float c_hi = 0.70710677;     // 1/sqrt(2) rounded to f32
    const float c_lo = 1.2101617e-08;  // 1/sqrt(2) - c_hi
    precise const float t_hi = x * c_hi;
    // Beyond |x| = 2^30 the correction meets a slope of exactly 0.
    precise const float t_lo = abs(x) < 1.0e9 ? product_error(x, c_hi, t_hi) + x * c_lo : 0.0;
    const float tail = kcs_erfc(-t_hi);
    // 2/sqrt(pi) e^(-t^2) by erf_exp, which keeps its subnormal values (x
    // near -13; lavapipe's exp flushes them, FINDINGS.md). Beyond |t| = 10.5
    // erfc(|t|) is 0 in f32 and for t > 0 the slope no longer matters.
    const float slope = abs(t_hi) < 10.5 ? 1.1283792 * erf_exp(-t_hi * t_hi) : 0.0;
    precise const float result = 0.5 * x * (tail + t_lo * slope);
    return result;
}

float unary_exp(float v) { return exp(v); }
float unary_log(float v) { return log(v); }
float unary_tanh(float v) { return tanh(v); }
float unary_erf(float v) { return kcs_erf(v); }
float unary_gelu(float v) { return gelu(v); }
float unary_sigmoid(float v) { return sigmoid(v); }
float unary_rsqrt(float v) { return inversesqrt(v); }

void main() {
    const uint i = global_index();
    if (i >= p.count) return;
    STORE_OUT(y, p.y_at + i, KCS_CAT(unary_, FUNCTION)(LOAD_IN(x, p.x_at + i)));
}
