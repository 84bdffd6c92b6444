// Single-head attention: one work-group per query row s. The scores of the
// row live in a scratch row of `keys` floats (binding 4, row s at s * keys):
// first the scaled dot products (key t by invocation t mod L, KEYS of its
// keys at a time), then their exponentials; the denominator is a work-group
// sum, and each output O[s, d] is the weighted sum over the keys in key
// order, COLUMNS neighbouring columns per invocation. Blocking the keys and
// the columns changes no sum's order, only how many values each read feeds:
// on lavapipe, where every buffer read is a per-invocation load, it took
// [16, 4096, 64] from 34 to 15 ms a call (bench_vulkan).
//
// A key whose score is -inf (causally masked, or -inf inputs) gets weight
// exactly 0 and stays out of the weighted sum, so a NaN or inf in its V row
// cannot leak; its scratch entry is -0, which exp never returns.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#define KCS_ROW_KERNEL
#define COLUMNS 4
#define KEYS 4
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
    // KEYS keys at a time (t, t + step, ...), so that each element of Q
    // read feeds KEYS products, then the keys left over one at a time (a
    // row shorter than KEYS * step computes no key it drops). The maximum
    // still takes the scores in the order t, t + step, ...
    uint t0 = lid;
    for (; t0 + uint(KEYS - 1) * step < visible; t0 += step * uint(KEYS)) {
        precise float dot[KEYS];  // no fused multiply-add (fp_contract off)
        uint k_base[KEYS];
        for (int j = 0; j < KEYS; ++j) {
            dot[j] = SUM_IDENTITY;
            k_base[j] = p.k_at + (t0 + uint(j) * step) * p.head_dim;
        }
        for (uint d = 0u; d < p.head_dim; ++d) {
            const float q_value = LOAD_IN(q, q_base + d);
            for (int j = 0; j < KEYS; ++j) dot[j] = dot[j] + q_value * LOAD_IN(k, k_base[j] + d);
        }
        for (int j = 0; j < KEYS; ++j) {
            const float score = p.scale * dot[j];
            scores[row + t0 + uint(j) * step] = score;
            m = maximum(m, score);
        }
    }
    for (; t0 < visible; t0 += step) {
        const uint k_base = p.k_at + t0 * p.head_dim;
        precise float dot = SUM_IDENTITY;
        for (uint d = 0u; d < p.head_dim; ++d) dot = dot + LOAD_IN(q, q_base + d) * LOAD_IN(k, k_base + d);
        const float score = p.scale * dot;
        scores[row + t0] = score;
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

    // Each invocation sums COLUMNS neighbouring columns, so that each weight
    // read feeds COLUMNS products; columns past the edge read the last one
    // and are not stored.
    for (uint d0 = lid * COLUMNS; d0 < p.head_dim; d0 += step * COLUMNS) {
        precise float weighted[COLUMNS];
        uint column[COLUMNS];
        for (int j = 0; j < COLUMNS; ++j) {
            weighted[j] = SUM_IDENTITY;
            column[j] = p.v_at + min(d0 + uint(j), p.head_dim - 1u);
        }
        for (uint t = 0u; t < visible; ++t) {
            const float weight = scores[row + t];
            const bool masked = is_masked(weight);
            const uint v_row = t * p.head_dim;
            for (int j = 0; j < COLUMNS; ++j) {
                precise const float next = weighted[j] + weight * LOAD_IN(v, column[j] + v_row);
                weighted[j] = masked ? weighted[j] : next;
            }
        }
        for (int j = 0; j < COLUMNS; ++j)
            if (d0 + uint(j) < p.head_dim)
                STORE_OUT(o, p.o_at + s * p.head_dim + d0 + uint(j), weighted[j] / denominator);
    }
}
