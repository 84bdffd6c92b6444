// Single-head attention: one work-group per query row s. The scores of the
// row live in a scratch row of `keys` floats (binding 4, row s at s * keys):
// first the scaled dot products (key t by invocation t mod L), then their
// exponentials; the denominator is a work-group sum, and each output O[s, d]
// is the weighted sum over the keys in key order, by invocation d mod L.
//
// A key whose score is -inf (causally masked, or -inf inputs) gets weight
// exactly 0 and stays out of the weighted sum, so a NaN or inf in its V row
// cannot leak; its scratch entry is -0, which exp never returns.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#define KCS_ROW_KERNEL
#include "common.glsl"

layout(set = 0, binding = 0) readonly buffer QBuffer { in_t q[]; };
layout(set = 0, binding = 1) readonly buffer KBuffer { in_t k[]; };
layout(set = 0, binding = 2) readonly buffer VBuffer { in_t v[]; };
layout(set = 0, binding = 3) writeonly buffer OBuffer { out_t o[]; };
// Written by one invocation and read by the others of the group: coherent.
layout(set = 0, binding = 4) coherent buffer ScoresBuffer { float scores[]; };
layout(push_constant) uniform Params {
    uint q_at; uint k_at; uint v_at; uint o_at; uint keys; uint head_dim; float scale; int causal; uint rows;
} p;

bool is_masked(float weight) { return weight == 0.0 && sign_bit(weight); }

void main() {
    const uint s = group_index();
    if (s >= p.rows) return;  // the whole group, before any barrier
    const uint lid = gl_LocalInvocationID.x;
    const uint step = gl_WorkGroupSize.x;
    const uint visible = p.causal != 0 ? min(p.keys, s + 1u) : p.keys;
    const uint row = s * p.keys;
    const uint q_base = p.q_at + s * p.head_dim;

    float m = KCS_NEG_INF;
    for (uint t = lid; t < visible; t += step) {
        const uint k_base = p.k_at + t * p.head_dim;
        precise float dot = SUM_IDENTITY;  // no fused multiply-add (fp_contract off)
        for (uint d = 0u; d < p.head_dim; ++d) dot = dot + LOAD_IN(q, q_base + d) * LOAD_IN(k, k_base + d);
        const float score = p.scale * dot;
        scores[row + t] = score;
        m = maximum(m, score);
    }
    m = work_group_max(m);

    float sum = SUM_IDENTITY;
    for (uint t = lid; t < visible; t += step) {
        const float score = scores[row + t];
        const float weight = exp(score - m);
        scores[row + t] = (score == KCS_NEG_INF && m != KCS_NEG_INF) ? -0.0 : weight;
        sum = sum + weight;
    }
    const float denominator = work_group_sum(sum);
    // Every invocation reads every weight of the row below.
    memoryBarrierBuffer();
    barrier();

    for (uint d = lid; d < p.head_dim; d += step) {
        precise float weighted = SUM_IDENTITY;
        for (uint t = 0u; t < visible; ++t) {
            const float weight = scores[row + t];
            if (is_masked(weight)) continue;
            weighted = weighted + weight * LOAD_IN(v, p.v_at + t * p.head_dim + d);
        }
        STORE_OUT(o, p.o_at + s * p.head_dim + d, weighted / denominator);
    }
}
