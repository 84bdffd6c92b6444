// elementwise: out[i] = f(a[i], b[i]) or mul_add(a[i], b[i], c[i]), one
// invocation per element, computed in f32 and rounded once by the store;
// instantiated with IN = OUT. Invocations past `count` do nothing.
// Defines: FUNCTION = add, mul or maximum, or MUL_ADD; NATIVE_F16 (f16 only)
// computes in float16_t arithmetic instead (needs shaderFloat16).
#version 450
#extension GL_GOOGLE_include_directive : require
#ifdef NATIVE_F16
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#endif
layout(local_size_x_id = 0) in;
#include "common.glsl"

#ifdef NATIVE_F16
#define value_t float16_t
#define LOAD(buffer, i) buffer[i]
#define STORE(buffer, i, v) buffer[i] = (v)
// maximum() of common.glsl in f16.
float16_t maximum(float16_t a, float16_t b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return sign_bit(float(a)) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}
#define ROUND(v) (v)
#else
#define value_t float
#define LOAD(buffer, i) LOAD_IN(buffer, i)
#define STORE(buffer, i, v) STORE_OUT(buffer, i, v)
#define ROUND(v) ROUND_OUT(v)
#endif

value_t elementwise_add(value_t x, value_t y) { return x + y; }
value_t elementwise_mul(value_t x, value_t y) { return x * y; }
value_t elementwise_maximum(value_t x, value_t y) { return maximum(x, y); }

layout(set = 0, binding = 0) readonly buffer ABuffer { in_t a[]; };
layout(set = 0, binding = 1) readonly buffer BBuffer { in_t b[]; };
#ifdef MUL_ADD
layout(set = 0, binding = 2) readonly buffer CBuffer { in_t c[]; };
layout(set = 0, binding = 3) writeonly buffer OutBuffer { out_t result[]; };
layout(push_constant) uniform Params { uint a_at; uint b_at; uint c_at; uint out_at; uint count; } p;

// round(round(a * b) + c): the product is rounded to the output dtype first;
// precise, so the two are never fused.
void main() {
    const uint i = global_index();
    if (i >= p.count) return;
    precise const value_t product = ROUND(LOAD(a, p.a_at + i) * LOAD(b, p.b_at + i));
    precise const value_t sum = product + LOAD(c, p.c_at + i);
    STORE(result, p.out_at + i, sum);
}
#else
layout(set = 0, binding = 2) writeonly buffer OutBuffer { out_t result[]; };
layout(push_constant) uniform Params { uint a_at; uint b_at; uint out_at; uint count; } p;

void main() {
    const uint i = global_index();
    if (i >= p.count) return;
    STORE(result, p.out_at + i, KCS_CAT(elementwise_, FUNCTION)(LOAD(a, p.a_at + i), LOAD(b, p.b_at + i)));
}
#endif
