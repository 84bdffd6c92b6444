// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE invocations computes a block of TILE * WIDTH rows and
// TILE * WIDTH columns, staging TILE-deep slices of A and B in shared
// memory; each invocation keeps WIDTH x WIDTH outputs (rows lr, lr + TILE,
// ...; columns lc, lc + TILE, ...) in registers, so that each value read
// from shared memory feeds WIDTH multiply-adds. Every output is one f32
// running sum in k order, so the result does not depend on the batch, the
// block or the neighbours. The host dispatches (ceil(n / 64), ceil(m / 64),
// batch).
#version 450
#extension GL_GOOGLE_include_directive : require
#define TILE 16
#define WIDTH 4
#define BLOCK (TILE * WIDTH)
layout(local_size_x = TILE, local_size_y = TILE, local_size_z = 1) in;
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer ABuffer { in_t a[]; };
layout(set = 0, binding = 1) readonly buffer BBuffer { in_t b[]; };
layout(set = 0, binding = 2) writeonly buffer CBuffer { out_t c[]; };
layout(push_constant) uniform Params { uint a_at; uint b_at; uint c_at; uint m; uint k; uint n; } p;

shared float a_tile[BLOCK][TILE];
shared float b_tile[TILE][BLOCK];

void main() {
    const uint lc = gl_LocalInvocationID.x;
    const uint lr = gl_LocalInvocationID.y;
    const uint first_col = gl_WorkGroupID.x * BLOCK + lc;
    const uint first_row = gl_WorkGroupID.y * BLOCK + lr;
    const uint batch = gl_WorkGroupID.z;
    const uint a_base = p.a_at + batch * p.m * p.k;
    const uint b_base = p.b_at + batch * p.k * p.n;
    precise float sum[WIDTH][WIDTH];  // no fused multiply-add (fp_contract off)
    for (int i = 0; i < WIDTH; ++i)
        for (int j = 0; j < WIDTH; ++j) sum[i][j] = SUM_IDENTITY;
    for (uint k0 = 0u; k0 < p.k; k0 += TILE) {
        const uint ak = k0 + lc;
        const uint bk = k0 + lr;
        for (int i = 0; i < WIDTH; ++i) {
            const uint row = first_row + i * TILE;
            a_tile[lr + i * TILE][lc] = (row < p.m && ak < p.k) ? LOAD_IN(a, a_base + row * p.k + ak) : 0.0;
        }
        for (int j = 0; j < WIDTH; ++j) {
            const uint col = first_col + j * TILE;
            b_tile[lr][lc + j * TILE] = (bk < p.k && col < p.n) ? LOAD_IN(b, b_base + bk * p.n + col) : 0.0;
        }
        barrier();
        const uint count = min(uint(TILE), p.k - k0);
        for (uint kk = 0u; kk < count; ++kk) {
            float a_value[WIDTH], b_value[WIDTH];
            for (int i = 0; i < WIDTH; ++i) a_value[i] = a_tile[lr + i * TILE][kk];
            for (int j = 0; j < WIDTH; ++j) b_value[j] = b_tile[kk][lc + j * TILE];
            for (int i = 0; i < WIDTH; ++i)
                for (int j = 0; j < WIDTH; ++j) sum[i][j] = sum[i][j] + a_value[i] * b_value[j];
        }
        barrier();
    }
    for (int i = 0; i < WIDTH; ++i) {
        const uint row = first_row + i * TILE;
        if (row >= p.m) continue;
        const uint c_base = p.c_at + batch * p.m * p.n + row * p.n;
        for (int j = 0; j < WIDTH; ++j) {
            const uint col = first_col + j * TILE;
            // An empty sum (K = 0) is +0.
            if (col < p.n) STORE_OUT(c, c_base + col, p.k == 0u ? 0.0 : sum[i][j]);
        }
    }
}
