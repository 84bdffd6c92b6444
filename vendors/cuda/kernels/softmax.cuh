// softmax over the last axis: one block per row. m = row maximum, s = sum
// of exp(x - m), y = exp(x - m) / s; exp is evaluated twice per element
// rather than kept, which costs no memory and gives the same value.
namespace kcs {

template <typename In, typename Out>
__global__ void softmax(const In* x, Out* y, index_t length) {
    extern __shared__ float scratch[];
    const In* row = x + blockIdx.x * length;
    Out* out = y + blockIdx.x * length;
    float m = -CUDART_INF_F;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) m = maximum(m, load(row, k));
    m = block_max(m, scratch);
    float s = kSumIdentity;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) s = s + expf(load(row, k) - m);
    s = block_sum(s, scratch);
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) store(out, k, expf(load(row, k) - m) / s);
}

}  // namespace kcs
