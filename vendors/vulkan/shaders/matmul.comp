// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE invocations computes a block of TILE * WIDTH rows and
// TILE * WIDTH columns; each invocation keeps WIDTH x WIDTH outputs (rows
// lr, lr + TILE, ...; columns lc, lc + TILE, ...) in registers and reads
// its WIDTH rows of A and WIDTH columns of B straight from the buffers, so
// each value read feeds WIDTH multiply-adds. No shared memory and no
// barrier: on lavapipe, where each shared-memory read is a per-invocation
// load and each barrier a coroutine switch, the shared-tile version took
// 3-4x as long ([128, 4096, 128]: 55 ms -> 17 ms a call, bench_vulkan). Every
// output is one f32 running sum in k order, so the result does not depend
// on the batch, the block or the neighbours. Rows and columns past the
// edge read the last row or column (clamped, so every read is in bounds)
// and are not stored. The k loop takes K_UNROLL terms per iteration,
// unrolled: lavapipe ends an invocation's loops after 65535 iterations in
// all (FINDINGS.md). The host dispatches (ceil(n / 64), ceil(m / 64),
// batch), none when m or n is 0.
#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#define TILE 8
#define WIDTH 8
#define BLOCK (TILE * WIDTH)
#define K_UNROLL 4u
layout(local_size_x = TILE, local_size_y = TILE, local_size_z = 1) in;
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer ABuffer { in_t a[]; };
layout(set = 0, binding = 1) readonly buffer BBuffer { in_t b[]; };
layout(set = 0, binding = 2) writeonly buffer CBuffer { out_t c[]; };
layout(push_constant) uniform Params { uint a_at; uint b_at; uint c_at; uint m; uint k; uint n; } p;

// Term kk of every output of the invocation (a macro: a function could not
// take the precise sums).
#define ADD_PRODUCTS(kk)                                                                  \
    {                                                                                     \
        float a_value[WIDTH], b_value[WIDTH];                                             \
        for (int i = 0; i < WIDTH; ++i) a_value[i] = LOAD_IN(a, a_row[i] + (kk));         \
        for (int j = 0; j < WIDTH; ++j) b_value[j] = LOAD_IN(b, b_col[j] + (kk) * p.n);   \
        for (int i = 0; i < WIDTH; ++i)                                                   \
            for (int j = 0; j < WIDTH; ++j) sum[i][j] = sum[i][j] + a_value[i] * b_value[j]; \
    }

void main() {
    const uint lc = gl_LocalInvocationID.x;
    const uint lr = gl_LocalInvocationID.y;
    const uint first_col = gl_WorkGroupID.x * BLOCK + lc;
    const uint first_row = gl_WorkGroupID.y * BLOCK + lr;
    const uint batch = gl_WorkGroupID.z;
    const uint a_base = p.a_at + batch * p.m * p.k;
    const uint b_base = p.b_at + batch * p.k * p.n;
    uint a_row[WIDTH], b_col[WIDTH];  // where this invocation's rows of A and columns of B start
    for (int i = 0; i < WIDTH; ++i) a_row[i] = a_base + min(first_row + i * TILE, p.m - 1u) * p.k;
    for (int j = 0; j < WIDTH; ++j) b_col[j] = b_base + min(first_col + j * TILE, p.n - 1u);
    precise float sum[WIDTH][WIDTH];  // no fused multiply-add (fp_contract off)
    for (int i = 0; i < WIDTH; ++i)
        for (int j = 0; j < WIDTH; ++j) sum[i][j] = SUM_IDENTITY;
    // K_UNROLL terms per iteration, unrolled, then the rest one by one:
    // lavapipe ends a shader's loops after 65535 iterations in all, so the
    // loop must not iterate K times (K = 65537 in the catalog).
    const uint k_whole = p.k - p.k % K_UNROLL;
    for (uint k0 = 0u; k0 < k_whole; k0 += K_UNROLL) {
        [[unroll]] for (uint u = 0u; u < K_UNROLL; ++u) ADD_PRODUCTS(k0 + u)
    }
    for (uint kk = k_whole; kk < p.k; ++kk) ADD_PRODUCTS(kk)
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
