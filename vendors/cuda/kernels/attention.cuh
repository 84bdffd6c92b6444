// Single-head attention: one block per query row s. The scores of the row
// live in a global scratch row of T floats: first the scaled dot products
// (key t by thread t mod L), then their exponentials; the denominator is a
// block sum, and each output O[s, d] is the weighted sum over the keys in
// key order, by thread d mod L.
//
// A key whose score is -inf (causally masked, or -inf inputs) gets weight
// exactly 0 and stays out of the weighted sum, so a NaN or inf in its V
// row cannot leak; its scratch entry is -0, which expf never returns.
namespace kcs {

__device__ inline bool is_masked(float weight) { return weight == 0.0f && signbit(weight); }

template <typename In, typename Out>
__global__ void attention(const In* q, const In* k, const In* v, Out* o, float* scores, index_t keys,
                          index_t head_dim, float scale, int causal) {
    extern __shared__ float scratch[];
    const index_t s = blockIdx.x;
    const index_t visible = causal ? (keys < s + 1 ? keys : s + 1) : keys;
    float* row = scores + s * keys;
    const In* q_row = q + s * head_dim;

    float m = -CUDART_INF_F;
    for (index_t t = threadIdx.x; t < visible; t += blockDim.x) {
        const In* k_row = k + t * head_dim;
        float dot = kSumIdentity;
        for (index_t d = 0; d < head_dim; ++d) dot = dot + load(q_row, d) * load(k_row, d);
        const float score = scale * dot;
        row[t] = score;
        m = maximum(m, score);
    }
    m = block_max(m, scratch);

    float sum = kSumIdentity;
    for (index_t t = threadIdx.x; t < visible; t += blockDim.x) {
        const float score = row[t];
        const float weight = expf(score - m);
        row[t] = (score == -CUDART_INF_F && m != -CUDART_INF_F) ? -0.0f : weight;
        sum = sum + weight;
    }
    const float denominator = block_sum(sum, scratch);  // its __syncthreads publishes row[] to the block

    for (index_t d = threadIdx.x; d < head_dim; d += blockDim.x) {
        float weighted = kSumIdentity;
        for (index_t t = 0; t < visible; ++t) {
            const float weight = row[t];
            if (is_masked(weight)) continue;
            weighted = weighted + weight * load(v, t * head_dim + d);
        }
        store(o, s * head_dim + d, weighted / denominator);
    }
}

}  // namespace kcs
