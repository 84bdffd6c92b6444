// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE work-items computes a block of TILE rows and TILE * WIDTH
// columns, staging TILE-deep slices of A and B in local memory; each
// work-item keeps WIDTH outputs (columns lc, lc + TILE, ...) in registers.
// Every output is one f32 running sum in k order, so the result does not
// depend on the batch, the block or the neighbours.
#ifndef TILE
#define TILE 16
#define WIDTH 4
#endif

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void KERNEL(matmul)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
                    __global out_t* c, ulong c_at, ulong m_size, ulong k_size, ulong n_size) {
    __local float a_tile[TILE][TILE];
    __local float b_tile[TILE][TILE * WIDTH];
    const size_t lc = get_local_id(0);
    const size_t lr = get_local_id(1);
    const size_t first_col = get_group_id(0) * TILE * WIDTH + lc;
    const size_t row = get_global_id(1);
    const size_t batch = get_global_id(2);
    const size_t a_base = a_at + batch * m_size * k_size;
    const size_t b_base = b_at + batch * k_size * n_size;
    float sum[WIDTH];
    for (int j = 0; j < WIDTH; ++j) sum[j] = SUM_IDENTITY;
    for (size_t k0 = 0; k0 < k_size; k0 += TILE) {
        const size_t ak = k0 + lc;
        const size_t bk = k0 + lr;
        a_tile[lr][lc] = (row < m_size && ak < k_size) ? LOAD_IN(a, a_base + row * k_size + ak) : 0.0f;
        for (int j = 0; j < WIDTH; ++j) {
            const size_t col = first_col + j * TILE;
            b_tile[lr][lc + j * TILE] = (bk < k_size && col < n_size) ? LOAD_IN(b, b_base + bk * n_size + col) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const size_t count = min((size_t)TILE, (size_t)(k_size - k0));
        for (size_t kk = 0; kk < count; ++kk) {
            const float a_value = a_tile[lr][kk];
            for (int j = 0; j < WIDTH; ++j) sum[j] = sum[j] + a_value * b_tile[kk][lc + j * TILE];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row >= m_size) return;
    const size_t c_base = c_at + batch * m_size * n_size + row * n_size;
    for (int j = 0; j < WIDTH; ++j) {
        const size_t col = first_col + j * TILE;
        // An empty sum (K = 0) is +0.
        if (col < n_size) STORE_OUT(c, c_base + col, k_size == 0 ? 0.0f : sum[j]);
    }
}
