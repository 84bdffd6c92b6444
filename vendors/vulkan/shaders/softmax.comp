// softmax over the last axis: one work-group per row. m = row maximum,
// s = sum of exp(x - m), y = exp(x - m) / s; exp is evaluated twice per
// element rather than kept, which costs no memory and gives the same value.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#define KCS_ROW_KERNEL
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer XBuffer { in_t x[]; };
layout(set = 0, binding = 1) writeonly buffer YBuffer { out_t y[]; };
// `row_length` is the listed `length`: p.length would parse as GLSL's .length().
layout(push_constant) uniform Params { uint x_at; uint y_at; uint row_length; uint rows; } p;

void main() {
    const uint row = group_index();
    if (row >= p.rows) return;  // the whole group, before any barrier
    const uint lid = gl_LocalInvocationID.x;
    const uint step = gl_WorkGroupSize.x;
    const uint x_base = p.x_at + row * p.row_length;
    const uint y_base = p.y_at + row * p.row_length;
    float m = KCS_NEG_INF;
    for (uint k = lid; k < p.row_length; k += step) m = maximum(m, LOAD_IN(x, x_base + k));
    m = work_group_max(m);
    float s = SUM_IDENTITY;
    for (uint k = lid; k < p.row_length; k += step) s = s + exp(LOAD_IN(x, x_base + k) - m);
    s = work_group_sum(s);
    for (uint k = lid; k < p.row_length; k += step) STORE_OUT(y, y_base + k, exp(LOAD_IN(x, x_base + k) - m) / s);
}
