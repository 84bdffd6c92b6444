// Single-head attention: one work-group per query row s. The scores of the
// row live in a global scratch row of T floats: first the scaled dot
// products (key t by work-item t mod L), then their exponentials; the
// denominator is a work-group sum, and each output O[s, d] is the weighted
// sum over the keys in key order, by work-item d mod L.
//
// A key whose score is -inf (causally masked, or -inf inputs) gets weight
// exactly 0 and stays out of the weighted sum, so a NaN or inf in its V row
// cannot leak; its scratch entry is -0, which exp never returns.

#ifndef KCS_ATTENTION_HELPERS
#define KCS_ATTENTION_HELPERS
inline bool is_masked(float weight) { return weight == 0.0f && signbit(weight); }
#endif

__kernel void KERNEL(attention)(__global const in_t* q, ulong q_at, __global const in_t* k, ulong k_at,
                        __global const in_t* v, ulong v_at, __global out_t* o, ulong o_at,
                        __global float* scores, ulong keys, ulong head_dim, float scale, int causal,
                        __local float* scratch) {
    const size_t s = get_group_id(0);
    const size_t lid = get_local_id(0);
    const size_t step = get_local_size(0);
    const size_t visible = causal ? min((size_t)keys, s + 1) : (size_t)keys;
    __global float* row = scores + s * keys;
    const size_t q_base = q_at + s * head_dim;

    float m = -INFINITY;
    for (size_t t = lid; t < visible; t += step) {
        const size_t k_base = k_at + t * head_dim;
        float dot = SUM_IDENTITY;
        for (size_t d = 0; d < head_dim; ++d) dot = dot + LOAD_IN(q, q_base + d) * LOAD_IN(k, k_base + d);
        const float score = scale * dot;
        row[t] = score;
        m = maximum(m, score);
    }
    m = work_group_max(m, scratch);

    float sum = SUM_IDENTITY;
    for (size_t t = lid; t < visible; t += step) {
        const float score = row[t];
        const float weight = exp(score - m);
        row[t] = (score == -INFINITY && m != -INFINITY) ? -0.0f : weight;
        sum = sum + weight;
    }
    const float denominator = work_group_sum(sum, scratch);
    barrier(CLK_GLOBAL_MEM_FENCE);

    for (size_t d = lid; d < head_dim; d += step) {
        float weighted = SUM_IDENTITY;
        for (size_t t = 0; t < visible; ++t) {
            const float weight = row[t];
            if (is_masked(weight)) continue;
            weighted = weighted + weight * LOAD_IN(v, v_at + t * head_dim + d);
        }
        STORE_OUT(o, o_at + s * head_dim + d, weighted / denominator);
    }
}
