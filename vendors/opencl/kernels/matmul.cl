// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. One work-item
// per output element; the work-group stages TILE x TILE blocks of A and B in
// local memory. Every dot product is one f32 running sum in k order, so the
// result does not depend on the batch or on the neighbours.
#ifndef TILE
#define TILE 16
#endif

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void KERNEL(matmul)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
            __global out_t* c, ulong c_at, ulong m_size, ulong k_size, ulong n_size) {
    __local float a_tile[TILE][TILE];
    __local float b_tile[TILE][TILE];
    const size_t col = get_global_id(0);
    const size_t row = get_global_id(1);
    const size_t batch = get_global_id(2);
    const size_t lc = get_local_id(0);
    const size_t lr = get_local_id(1);
    const size_t a_base = a_at + batch * m_size * k_size;
    const size_t b_base = b_at + batch * k_size * n_size;
    float sum = SUM_IDENTITY;
    for (size_t k0 = 0; k0 < k_size; k0 += TILE) {
        const size_t ak = k0 + lc;
        const size_t bk = k0 + lr;
        a_tile[lr][lc] = (row < m_size && ak < k_size) ? LOAD_IN(a, a_base + row * k_size + ak) : 0.0f;
        b_tile[lr][lc] = (bk < k_size && col < n_size) ? LOAD_IN(b, b_base + bk * n_size + col) : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        const size_t count = min((size_t)TILE, (size_t)(k_size - k0));
        for (size_t kk = 0; kk < count; ++kk) sum = sum + a_tile[lr][kk] * b_tile[kk][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // An empty sum (K = 0) is +0.
    if (k_size == 0) sum = 0.0f;
    if (row < m_size && col < n_size) STORE_OUT(c, c_at + batch * m_size * n_size + row * n_size + col, sum);
}
