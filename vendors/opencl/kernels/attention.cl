// Single-head attention: one work-group per query row s. The scores of the
// row live in a global scratch row of T floats: first the scaled dot
// products (key t by work-item t mod L), then their exponentials; the
// denominator is a work-group sum, and each output O[s, d] is the weighted
// sum over the keys in key order, by work-item d mod L.
//
// In lanes (common.cl): work-item w does the work of the virtual
// work-items 16w .. 16w + 15, so 16 keys (or 16 columns of O) at a time.
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
                                __local float16* scratch) {
    const size_t s = get_group_id(0);
    const size_t first = get_local_id(0) * LANES;
    const size_t step = get_local_size(0) * LANES;
    const size_t visible = causal ? min((size_t)keys, s + 1) : (size_t)keys;
    __global float* row = scores + s * keys;
    const size_t q_base = q_at + s * head_dim;

    float16 m = -INFINITY;
    for (size_t t = first; t < visible; t += step) {
        size_t k_base[LANES];  // keys past the visible ones read the last visible key, and are masked below
        for (int j = 0; j < LANES; ++j) k_base[j] = k_at + min(t + j, visible - 1) * head_dim;
        float16 dot = SUM_IDENTITY;
        for (size_t d = 0; d < head_dim; ++d) {
            float key_values[LANES];
            for (int j = 0; j < LANES; ++j) key_values[j] = LOAD_IN(k, k_base[j] + d);
            dot = dot + LOAD_IN(q, q_base + d) * vload16(0, key_values);
        }
        const float16 score = scale * dot;
        store_lanes_f32(row, 0, t, visible, score);
        m = maximum16(m, lanes_in_row(score, t, visible, -INFINITY));
    }
    const float row_max = lanes_max(m, scratch);

    float16 sum = SUM_IDENTITY;
    for (size_t t = first; t < visible; t += step) {
        const float16 score = load_lanes_f32(row, 0, t, visible, 0.0f);
        const float16 weight = exp_lanes(score - row_max);
        const int16 masked = score == -INFINITY && row_max != -INFINITY;
        store_lanes_f32(row, 0, t, visible, select(weight, (float16)(-0.0f), masked));
        sum = sum + lanes_in_row(weight, t, visible, SUM_IDENTITY);
    }
    const float denominator = lanes_sum(sum, scratch);
    barrier(CLK_GLOBAL_MEM_FENCE);

    for (size_t d = first; d < head_dim; d += step) {
        float16 weighted = SUM_IDENTITY;
        for (size_t t = 0; t < visible; ++t) {
            const float weight = row[t];
            if (is_masked(weight)) continue;
            weighted = weighted + weight * LOAD_LANES_IN(v, v_at + t * head_dim, d, head_dim, 0.0f);
        }
        STORE_LANES_OUT(o, o_at + s * head_dim, d, head_dim, weighted / denominator);
    }
}
