// matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n]. A block of
// kTile x kTile threads computes kTile rows and kTile * kWidth columns,
// staging kTile-deep slices of A and B in shared memory; each thread keeps
// kWidth outputs (columns lc, lc + kTile, ...) in registers. Every output
// is one f32 running sum in k order, so the result does not depend on the
// batch, the block or the neighbours. Grid: (column blocks, row blocks,
// batch).
namespace kcs {

constexpr unsigned kTile = 16;   // src/row_operators.cpp launches kTile x kTile blocks
constexpr unsigned kWidth = 4;

template <typename In, typename Out>
__global__ void __launch_bounds__(kTile * kTile)
matmul(const In* a, const In* b, Out* c, index_t m_size, index_t k_size, index_t n_size) {
    __shared__ float a_tile[kTile][kTile];
    __shared__ float b_tile[kTile][kTile * kWidth];
    const unsigned lc = threadIdx.x;
    const unsigned lr = threadIdx.y;
    const index_t first_col = blockIdx.x * static_cast<index_t>(kTile * kWidth) + lc;
    const index_t row = blockIdx.y * static_cast<index_t>(kTile) + lr;
    const index_t batch = blockIdx.z;
    const In* a_batch = a + batch * m_size * k_size;
    const In* b_batch = b + batch * k_size * n_size;
    float sum[kWidth];
    for (unsigned j = 0; j < kWidth; ++j) sum[j] = kSumIdentity;
    for (index_t k0 = 0; k0 < k_size; k0 += kTile) {
        const index_t ak = k0 + lc;
        const index_t bk = k0 + lr;
        a_tile[lr][lc] = (row < m_size && ak < k_size) ? load(a_batch, row * k_size + ak) : 0.0f;
        for (unsigned j = 0; j < kWidth; ++j) {
            const index_t col = first_col + j * kTile;
            b_tile[lr][lc + j * kTile] = (bk < k_size && col < n_size) ? load(b_batch, bk * n_size + col) : 0.0f;
        }
        __syncthreads();
        const index_t count = k_size - k0 < kTile ? k_size - k0 : kTile;
        for (index_t kk = 0; kk < count; ++kk) {
            const float a_value = a_tile[lr][kk];
            for (unsigned j = 0; j < kWidth; ++j) sum[j] = sum[j] + a_value * b_tile[kk][lc + j * kTile];
        }
        __syncthreads();
    }
    if (row >= m_size) return;
    Out* c_row = c + batch * m_size * n_size + row * n_size;
    for (unsigned j = 0; j < kWidth; ++j) {
        const index_t col = first_col + j * kTile;
        // An empty sum (K = 0) is +0.
        if (col < n_size) store(c_row, col, k_size == 0 ? 0.0f : sum[j]);
    }
}

}  // namespace kcs
