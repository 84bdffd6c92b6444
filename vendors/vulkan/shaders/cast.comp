// cast: y[i] = x[i] converted, one invocation per element: widening by
// load, narrowing by the rounding store. Invocations past `count` do nothing.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer XBuffer { in_t x[]; };
layout(set = 0, binding = 1) writeonly buffer YBuffer { out_t y[]; };
layout(push_constant) uniform Params { uint x_at; uint y_at; uint count; } p;

void main() {
    const uint i = global_index();
    if (i >= p.count) return;
    STORE_OUT(y, p.y_at + i, LOAD_IN(x, p.x_at + i));
}
