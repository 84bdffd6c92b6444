// layernorm and rmsnorm over the last axis: one work-group per row, the
// statistics by work-group sums, then every element written by the
// invocation that read it. gamma and beta have the input dtype.
// Defines: LAYERNORM or RMSNORM.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#define KCS_ROW_KERNEL
#include "common.glsl"

// `row_length` is the listed `length`: p.length would parse as GLSL's .length().
#ifdef LAYERNORM
layout(set = 0, binding = 0) readonly buffer XBuffer { in_t x[]; };
layout(set = 0, binding = 1) readonly buffer GammaBuffer { in_t gamma[]; };
layout(set = 0, binding = 2) readonly buffer BetaBuffer { in_t beta[]; };
layout(set = 0, binding = 3) writeonly buffer YBuffer { out_t y[]; };
layout(push_constant) uniform Params {
    uint x_at; uint gamma_at; uint beta_at; uint y_at; uint row_length; float eps; uint rows;
} p;

// y = ((x - mean) * rstd) * gamma + beta, the variance from the deviations
// (two passes: never negative).
void main() {
    const uint row = group_index();
    if (row >= p.rows) return;  // the whole group, before any barrier
    const uint lid = gl_LocalInvocationID.x;
    const uint step = gl_WorkGroupSize.x;
    const uint x_base = p.x_at + row * p.row_length;
    const uint y_base = p.y_at + row * p.row_length;
    const float count = float(p.row_length);
    float sum = SUM_IDENTITY;
    for (uint k = lid; k < p.row_length; k += step) sum = sum + LOAD_IN(x, x_base + k);
    const float mean = work_group_sum(sum) / count;
    precise float squares = SUM_IDENTITY;
    for (uint k = lid; k < p.row_length; k += step) {
        const float deviation = LOAD_IN(x, x_base + k) - mean;
        squares = squares + deviation * deviation;
    }
    const float variance = work_group_sum(squares) / count;
    const float rstd = 1.0 / sqrt(variance + p.eps);
    for (uint k = lid; k < p.row_length; k += step) {
        const float normalized = (LOAD_IN(x, x_base + k) - mean) * rstd;
        precise const float scaled = normalized * LOAD_IN(gamma, p.gamma_at + k);
        precise const float value = scaled + LOAD_IN(beta, p.beta_at + k);
        STORE_OUT(y, y_base + k, value);
    }
}
#else
layout(set = 0, binding = 0) readonly buffer XBuffer { in_t x[]; };
layout(set = 0, binding = 1) readonly buffer GammaBuffer { in_t gamma[]; };
layout(set = 0, binding = 2) writeonly buffer YBuffer { out_t y[]; };
layout(push_constant) uniform Params { uint x_at; uint gamma_at; uint y_at; uint row_length; float eps; uint rows; } p;

// y = (x * rrms) * gamma, rrms = 1 / sqrt(mean of x^2 + eps).
void main() {
    const uint row = group_index();
    if (row >= p.rows) return;  // the whole group, before any barrier
    const uint lid = gl_LocalInvocationID.x;
    const uint step = gl_WorkGroupSize.x;
    const uint x_base = p.x_at + row * p.row_length;
    const uint y_base = p.y_at + row * p.row_length;
    precise float squares = SUM_IDENTITY;
    for (uint k = lid; k < p.row_length; k += step) {
        const float value = LOAD_IN(x, x_base + k);
        squares = squares + value * value;
    }
    const float mean_square = work_group_sum(squares) / float(p.row_length);
    const float rrms = 1.0 / sqrt(mean_square + p.eps);
    for (uint k = lid; k < p.row_length; k += step) {
        const float normalized = LOAD_IN(x, x_base + k) * rrms;
        STORE_OUT(y, y_base + k, normalized * LOAD_IN(gamma, p.gamma_at + k));
    }
}
#endif
