// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE work-items computes a block of TILE * WIDTH rows and
// TILE * WIDTH columns, staging TILE-deep slices of A and B in local
// memory; each work-item keeps WIDTH x WIDTH outputs (rows lr, lr + TILE,
// ...; columns lc, lc + TILE, ...) in registers, so that each value read
// from local memory feeds WIDTH multiply-adds. Every output is one f32
// running sum in k order, so the result does not depend on the batch, the
// block or the neighbours.
#ifndef TILE
#define TILE 16
#define WIDTH 4
#endif
#define BLOCK (TILE * WIDTH)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void KERNEL(matmul)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
                    __global out_t* c, ulong c_at, ulong m_size, ulong k_size, ulong n_size) {
    __local float a_tile[BLOCK][TILE];
    __local float b_tile[TILE][BLOCK];
    const size_t lc = get_local_id(0);
    const size_t lr = get_local_id(1);
    const size_t first_col = get_group_id(0) * BLOCK + lc;
    const size_t first_row = get_group_id(1) * BLOCK + lr;
    const size_t batch = get_global_id(2);
    const size_t a_base = a_at + batch * m_size * k_size;
    const size_t b_base = b_at + batch * k_size * n_size;
    float sum[WIDTH][WIDTH];
    for (int i = 0; i < WIDTH; ++i)
        for (int j = 0; j < WIDTH; ++j) sum[i][j] = SUM_IDENTITY;
    for (size_t k0 = 0; k0 < k_size; k0 += TILE) {
        const size_t ak = k0 + lc;
        const size_t bk = k0 + lr;
        for (int i = 0; i < WIDTH; ++i) {
            const size_t row = first_row + i * TILE;
            a_tile[lr + i * TILE][lc] = (row < m_size && ak < k_size) ? LOAD_IN(a, a_base + row * k_size + ak) : 0.0f;
        }
        for (int j = 0; j < WIDTH; ++j) {
            const size_t col = first_col + j * TILE;
            b_tile[lr][lc + j * TILE] = (bk < k_size && col < n_size) ? LOAD_IN(b, b_base + bk * n_size + col) : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const size_t count = min((size_t)TILE, (size_t)(k_size - k0));
        for (size_t kk = 0; kk < count; ++kk) {
            float a_value[WIDTH], b_value[WIDTH];
            for (int i = 0; i < WIDTH; ++i) a_value[i] = a_tile[lr + i * TILE][kk];
            for (int j = 0; j < WIDTH; ++j) b_value[j] = b_tile[kk][lc + j * TILE];
            for (int i = 0; i < WIDTH; ++i)
                for (int j = 0; j < WIDTH; ++j) sum[i][j] = sum[i][j] + a_value[i] * b_value[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int i = 0; i < WIDTH; ++i) {
        const size_t row = first_row + i * TILE;
        if (row >= m_size) continue;
        const size_t c_base = c_at + batch * m_size * n_size + row * n_size;
        for (int j = 0; j < WIDTH; ++j) {
            const size_t col = first_col + j * TILE;
            // An empty sum (K = 0) is +0.
            if (col < n_size) STORE_OUT(c, c_base + col, k_size == 0 ? 0.0f : sum[i][j]);
        }
    }
}
