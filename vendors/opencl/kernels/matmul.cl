// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. Each
// work-item keeps ROWS rows of COLUMNS (16) neighbouring outputs in ROWS
// float16 registers: per k it reads one run of 16 values of B's row k and
// one value of A per row, so each value read from memory feeds ROWS or 16
// multiply-adds, and on a CPU device (PoCL) each row's 16 sums are one
// vector operation. No local memory and no barrier. A work-group of TILE x
// TILE work-items covers TILE * COLUMNS columns and TILE * ROWS rows.
//
// Every output is one f32 running sum in k order (lanes are separate IEEE
// operations, FP_CONTRACT is off), so the result does not depend on the
// batch, the block or the neighbours. A work-item whose 16 columns would
// pass n computes the last 16 columns instead and stores only its own; when
// n < 16 the places past n hold 0 and are not stored. Rows past
// m read row m - 1 and are not stored. The host launches no work-group when
// m or n is 0.
#ifndef TILE
#define TILE 4
#define ROWS 4
#endif
#define COLUMNS LANES  // one float16 of B per k (load_lanes_*, common.cl)

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void KERNEL(matmul)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
                    __global out_t* c, ulong c_at, ulong m_size, ulong k_size, ulong n_size) {
    const size_t own_col = get_global_id(0) * COLUMNS;
    const size_t first_row = get_global_id(1) * ROWS;
    if (own_col >= n_size || first_row >= m_size) return;
    const size_t first_col = n_size < COLUMNS ? 0 : min(own_col, (size_t)(n_size - COLUMNS));
    const size_t batch = get_global_id(2);
    const size_t a_base = a_at + batch * m_size * k_size;
    const size_t b_base = b_at + batch * k_size * n_size;
    // The loops over ROWS are unrolled so that the sums stay in registers
    // (PoCL kept them on the stack otherwise, a load and a store per step).
    size_t a_row[ROWS];
    #pragma unroll
    for (int i = 0; i < ROWS; ++i) a_row[i] = a_base + min(first_row + i, (size_t)(m_size - 1)) * k_size;
    float16 sum[ROWS];
    #pragma unroll
    for (int i = 0; i < ROWS; ++i) sum[i] = (float16)(SUM_IDENTITY);
    for (size_t kk = 0; kk < k_size; ++kk) {
        const float16 b_value = LOAD_LANES_IN(b, b_base + kk * n_size, first_col, n_size, 0.0f);
        #pragma unroll
        for (int i = 0; i < ROWS; ++i) sum[i] = sum[i] + (float16)(LOAD_IN(a, a_row[i] + kk)) * b_value;
    }
    for (int i = 0; i < ROWS; ++i) {
        const size_t row = first_row + i;
        if (row >= m_size) break;
        float values[COLUMNS];
        vstore16(sum[i], 0, values);
        const size_t c_row = c_at + batch * m_size * n_size + row * n_size;
        for (int j = 0; j < COLUMNS; ++j) {
            const size_t col = first_col + j;
            // An empty sum (K = 0) is +0.
            if (col >= own_col && col < n_size) STORE_OUT(c, c_row + col, k_size == 0 ? 0.0f : values[j]);
        }
    }
}
