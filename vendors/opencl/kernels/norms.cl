// layernorm and rmsnorm over the last axis: one work-group per row, the
// statistics by work-group sums, then every element written by the
// work-item that read it. gamma and beta have the input dtype.

// y = ((x - mean) * rstd) * gamma + beta, the variance from the deviations
// (two passes: never negative).
__kernel void KERNEL(layernorm)(__global const in_t* x, ulong x_at, __global const in_t* gamma, ulong gamma_at,
                        __global const in_t* beta, ulong beta_at, __global out_t* y, ulong y_at, ulong length,
                        float eps, __local float* scratch) {
    const size_t row = get_group_id(0);
    const size_t lid = get_local_id(0);
    const size_t step = get_local_size(0);
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    const float count = (float)length;
    float sum = SUM_IDENTITY;
    for (size_t k = lid; k < length; k += step) sum = sum + LOAD_IN(x, x_base + k);
    const float mean = work_group_sum(sum, scratch) / count;
    float squares = SUM_IDENTITY;
    for (size_t k = lid; k < length; k += step) {
        const float deviation = LOAD_IN(x, x_base + k) - mean;
        squares = squares + deviation * deviation;
    }
    const float variance = work_group_sum(squares, scratch) / count;
    const float rstd = 1.0f / sqrt(variance + eps);
    for (size_t k = lid; k < length; k += step) {
        const float normalized = (LOAD_IN(x, x_base + k) - mean) * rstd;
        const float scaled = normalized * LOAD_IN(gamma, gamma_at + k);
        STORE_OUT(y, y_base + k, scaled + LOAD_IN(beta, beta_at + k));
    }
}

// y = (x * rrms) * gamma, rrms = 1 / sqrt(mean of x^2 + eps).
__kernel void KERNEL(rmsnorm)(__global const in_t* x, ulong x_at, __global const in_t* gamma, ulong gamma_at,
                      __global out_t* y, ulong y_at, ulong length, float eps, __local float* scratch) {
    const size_t row = get_group_id(0);
    const size_t lid = get_local_id(0);
    const size_t step = get_local_size(0);
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    float squares = SUM_IDENTITY;
    for (size_t k = lid; k < length; k += step) {
        const float value = LOAD_IN(x, x_base + k);
        squares = squares + value * value;
    }
    const float mean_square = work_group_sum(squares, scratch) / (float)length;
    const float rrms = 1.0f / sqrt(mean_square + eps);
    for (size_t k = lid; k < length; k += step) {
        const float normalized = LOAD_IN(x, x_base + k) * rrms;
        STORE_OUT(y, y_base + k, normalized * LOAD_IN(gamma, gamma_at + k));
    }
}
