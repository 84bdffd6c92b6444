// reduce_sum and reduce_max over the last axis: one block per row. Thread
// i takes elements i, i + L, i + 2L, ... (L the block size) in order, then
// the block combines the partials by a fixed tree.
namespace kcs {

template <typename In, typename Out>
__global__ void reduce_sum(const In* x, Out* y, index_t length) {
    extern __shared__ float scratch[];
    const In* row = x + blockIdx.x * length;
    float sum = kSumIdentity;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) sum = sum + load(row, k);
    sum = block_sum(sum, scratch);
    if (threadIdx.x == 0) store(y, blockIdx.x, sum);
}

template <typename In, typename Out>
__global__ void reduce_max(const In* x, Out* y, index_t length) {
    extern __shared__ float scratch[];
    const In* row = x + blockIdx.x * length;
    float result = -CUDART_INF_F;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) result = maximum(result, load(row, k));
    result = block_max(result, scratch);
    if (threadIdx.x == 0) store(y, blockIdx.x, result);
}

}  // namespace kcs
