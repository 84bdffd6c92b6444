// reduce_sum and reduce_max over the last axis: one work-group per row.
// Invocation i takes elements i, i + L, i + 2L, ... (L the local size) in
// order, then the work-group combines the partials by a fixed tree.
// Defines: REDUCE_SUM or REDUCE_MAX.
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
    const uint base = p.x_at + row * p.row_length;
#ifdef REDUCE_SUM
    float result = SUM_IDENTITY;
    for (uint k = gl_LocalInvocationID.x; k < p.row_length; k += gl_WorkGroupSize.x) result = result + LOAD_IN(x, base + k);
    result = work_group_sum(result);
#else
    float result = KCS_NEG_INF;
    for (uint k = gl_LocalInvocationID.x; k < p.row_length; k += gl_WorkGroupSize.x) result = maximum(result, LOAD_IN(x, base + k));
    result = work_group_max(result);
#endif
    if (gl_LocalInvocationID.x == 0u) STORE_OUT(y, p.y_at + row, result);
}
