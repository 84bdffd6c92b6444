// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE invocations computes a block of TILE rows and TILE * WIDTH
// columns, staging TILE-deep slices of A and B in shared memory; each
// invocation keeps WIDTH outputs (columns lc, lc + TILE, ...) in registers.
// Every output is one f32 running sum in k order, so the result does not
// depend on the batch, the block or the neighbours. The host dispatches
// (ceil(n / 64), ceil(m / 16), batch).
#version 450
#extension GL_GOOGLE_include_directive : require
#define TILE 16
#define WIDTH 4
layout(local_size_x = TILE, local_size_y = TILE, local_size_z = 1) in;
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer ABuffer { in_t a[]; };
layout(set = 0, binding = 1) readonly buffer BBuffer { in_t b[]; };
layout(set = 0, binding = 2) writeonly buffer CBuffer { out_t c[]; };
layout(push_constant) uniform Params { uint a_at; uint b_at; uint c_at; uint m; uint k; uint n; } p;

shared float a_tile[TILE][TILE];
shared float b_tile[TILE][TILE * WIDTH];

void main() {
    const uint lc = gl_LocalInvocationID.x;
    const uint lr = gl_LocalInvocationID.y;
    const uint first_col = gl_WorkGroupID.x * (TILE * WIDTH) + lc;
    const uint row = gl_WorkGroupID.y * TILE + lr;
    const uint batch = gl_WorkGroupID.z;
    const uint a_base = p.a_at + batch * p.m * p.k;
    const uint b_base = p.b_at + batch * p.k * p.n;
    precise float sum[WIDTH];  // no fused multiply-add (fp_contract off)
    for (int j = 0; j < WIDTH; ++j) sum[j] = SUM_IDENTITY;
    for (uint k0 = 0u; k0 < p.k; k0 += TILE) {
        const uint ak = k0 + lc;
        const uint bk = k0 + lr;
        a_tile[lr][lc] = (row < p.m && ak < p.k) ? LOAD_IN(a, a_base + row * p.k + ak) : 0.0;
        for (int j = 0; j < WIDTH; ++j) {
            const uint col = first_col + j * TILE;
            b_tile[lr][lc + j * TILE] = (bk < p.k && col < p.n) ? LOAD_IN(b, b_base + bk * p.n + col) : 0.0;
        }
        barrier();
        const uint count = min(uint(TILE), p.k - k0);
        for (uint kk = 0u; kk < count; ++kk) {
            const float a_value = a_tile[lr][kk];
            for (int j = 0; j < WIDTH; ++j) sum[j] = sum[j] + a_value * b_tile[kk][lc + j * TILE];
        }
        barrier();
    }
    if (row >= p.m) return;
    const uint c_base = p.c_at + batch * p.m * p.n + row * p.n;
    for (int j = 0; j < WIDTH; ++j) {
        const uint col = first_col + j * TILE;
        // An empty sum (K = 0) is +0.
        if (col < p.n) STORE_OUT(c, c_base + col, p.k == 0u ? 0.0 : sum[j]);
    }
}
