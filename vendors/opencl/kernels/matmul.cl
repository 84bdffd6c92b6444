// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A work-group
// of TILE x TILE work-items computes a block of TILE * WIDTH rows and
// TILE * WIDTH columns; each work-item keeps WIDTH x WIDTH outputs (rows
// lr, lr + TILE, ...; columns lc, lc + TILE, ...) in registers and reads
// its WIDTH rows of A and WIDTH columns of B straight from global memory,
// so each value read feeds WIDTH multiply-adds. No local memory and no
// barrier: on PoCL the local-memory version took 16.4 ms a call at
// [128, 4096, 128], this one 10-11 ms (bench_opencl). Every output is one
// f32 running sum in k order, so the result does not depend on the batch,
// the block or the neighbours. Rows and columns past the edge read the
// last row or column (clamped, so every read is in bounds) and are not
// stored; the host launches no work-group when m or n is 0.
#ifndef TILE
#define TILE 4
#define WIDTH 16
#endif
#define BLOCK (TILE * WIDTH)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void KERNEL(matmul)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
                    __global out_t* c, ulong c_at, ulong m_size, ulong k_size, ulong n_size) {
    const size_t lc = get_local_id(0);
    const size_t lr = get_local_id(1);
    const size_t first_col = get_group_id(0) * BLOCK + lc;
    const size_t first_row = get_group_id(1) * BLOCK + lr;
    const size_t batch = get_global_id(2);
    const size_t a_base = a_at + batch * m_size * k_size;
    const size_t b_base = b_at + batch * k_size * n_size;
    size_t a_row[WIDTH], b_col[WIDTH];
    for (int i = 0; i < WIDTH; ++i) a_row[i] = a_base + min(first_row + i * TILE, (size_t)(m_size - 1)) * k_size;
    for (int j = 0; j < WIDTH; ++j) b_col[j] = b_base + min(first_col + j * TILE, (size_t)(n_size - 1));
    float sum[WIDTH][WIDTH];
    for (int i = 0; i < WIDTH; ++i)
        for (int j = 0; j < WIDTH; ++j) sum[i][j] = SUM_IDENTITY;
    for (size_t kk = 0; kk < k_size; ++kk) {
        float a_value[WIDTH], b_value[WIDTH];
        for (int i = 0; i < WIDTH; ++i) a_value[i] = LOAD_IN(a, a_row[i] + kk);
        for (int j = 0; j < WIDTH; ++j) b_value[j] = LOAD_IN(b, b_col[j] + kk * n_size);
        for (int i = 0; i < WIDTH; ++i)
            for (int j = 0; j < WIDTH; ++j) sum[i][j] = sum[i][j] + a_value[i] * b_value[j];
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
