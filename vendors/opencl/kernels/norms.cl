// layernorm and rmsnorm over the last axis: one work-group per row, the
// statistics by work-group sums, then every element written by the
// work-item that read it. gamma and beta have the input dtype. In lanes
// (common.cl): work-item w does the work of the virtual work-items
// 16w .. 16w + 15, 16 elements at a time.

// y = ((x - mean) * rstd) * gamma + beta, the variance from the deviations
// (two passes: never negative).
__kernel void KERNEL(layernorm)(__global const in_t* x, ulong x_at, __global const in_t* gamma, ulong gamma_at,
                                __global const in_t* beta, ulong beta_at, __global out_t* y, ulong y_at, ulong length,
                                float eps, __local float16* scratch) {
    const size_t row = get_group_id(0);
    const size_t first = get_local_id(0) * LANES;
    const size_t step = get_local_size(0) * LANES;
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    const float count = (float)length;
    float16 sum = SUM_IDENTITY;
    for (size_t k = first; k < length; k += step) sum = sum + LOAD_LANES_IN(x, x_base, k, length, SUM_IDENTITY);
    const float mean = lanes_sum(sum, scratch) / count;
    float16 squares = SUM_IDENTITY;
    for (size_t k = first; k < length; k += step) {
        const float16 deviation = LOAD_LANES_IN(x, x_base, k, length, 0.0f) - mean;
        squares = squares + lanes_in_row(deviation * deviation, k, length, SUM_IDENTITY);
    }
    const float variance = lanes_sum(squares, scratch) / count;
    const float rstd = 1.0f / sqrt(variance + eps);
    for (size_t k = first; k < length; k += step) {
        const float16 normalized = (LOAD_LANES_IN(x, x_base, k, length, 0.0f) - mean) * rstd;
        const float16 scaled = normalized * LOAD_LANES_IN(gamma, gamma_at, k, length, 0.0f);
        STORE_LANES_OUT(y, y_base, k, length, scaled + LOAD_LANES_IN(beta, beta_at, k, length, 0.0f));
    }
}

// y = (x * rrms) * gamma, rrms = 1 / sqrt(mean of x^2 + eps).
__kernel void KERNEL(rmsnorm)(__global const in_t* x, ulong x_at, __global const in_t* gamma, ulong gamma_at,
                              __global out_t* y, ulong y_at, ulong length, float eps, __local float16* scratch) {
    const size_t row = get_group_id(0);
    const size_t first = get_local_id(0) * LANES;
    const size_t step = get_local_size(0) * LANES;
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    float16 squares = SUM_IDENTITY;
    for (size_t k = first; k < length; k += step) {
        const float16 value = LOAD_LANES_IN(x, x_base, k, length, 0.0f);
        squares = squares + lanes_in_row(value * value, k, length, SUM_IDENTITY);
    }
    const float mean_square = lanes_sum(squares, scratch) / (float)length;
    const float rrms = 1.0f / sqrt(mean_square + eps);
    for (size_t k = first; k < length; k += step) {
        const float16 normalized = LOAD_LANES_IN(x, x_base, k, length, 0.0f) * rrms;
        STORE_LANES_OUT(y, y_base, k, length, normalized * LOAD_LANES_IN(gamma, gamma_at, k, length, 0.0f));
    }
}
