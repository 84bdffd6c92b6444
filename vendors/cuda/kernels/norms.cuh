// layernorm and rmsnorm over the last axis: one block per row, the
// statistics by block sums, then every element written by the thread that
// read it. gamma and beta have the input dtype.
namespace kcs {

// y = ((x - mean) * rstd) * gamma + beta, the variance from the deviations
// (two passes: never negative).
template <typename In, typename Out>
__global__ void layernorm(const In* x, const In* gamma, const In* beta, Out* y, index_t length, float eps) {
    extern __shared__ float scratch[];
    const In* row = x + blockIdx.x * length;
    Out* out = y + blockIdx.x * length;
    const float count = static_cast<float>(length);
    float sum = kSumIdentity;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) sum = sum + load(row, k);
    const float mean = block_sum(sum, scratch) / count;
    float squares = kSumIdentity;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) {
        const float deviation = load(row, k) - mean;
        squares = squares + deviation * deviation;
    }
    const float variance = block_sum(squares, scratch) / count;
    const float rstd = 1.0f / sqrtf(variance + eps);
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) {
        const float normalized = (load(row, k) - mean) * rstd;
        const float scaled = normalized * load(gamma, k);
        store(out, k, scaled + load(beta, k));
    }
}

// y = (x * rrms) * gamma, rrms = 1 / sqrt(mean of x^2 + eps).
template <typename In, typename Out>
__global__ void rmsnorm(const In* x, const In* gamma, Out* y, index_t length, float eps) {
    extern __shared__ float scratch[];
    const In* row = x + blockIdx.x * length;
    Out* out = y + blockIdx.x * length;
    float squares = kSumIdentity;
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) {
        const float value = load(row, k);
        squares = squares + value * value;
    }
    const float mean_square = block_sum(squares, scratch) / static_cast<float>(length);
    const float rrms = 1.0f / sqrtf(mean_square + eps);
    for (index_t k = threadIdx.x; k < length; k += blockDim.x) store(out, k, (load(row, k) * rrms) * load(gamma, k));
}

}  // namespace kcs
