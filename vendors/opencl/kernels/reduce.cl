// reduce_sum and reduce_max over the last axis: one work-group per row.
// Virtual work-item i takes elements i, i + L, i + 2L, ... (L the
// reduction's local size) in order, then the work-group combines the
// partials by a fixed tree; in lanes (common.cl), work-item w does the work
// of virtual work-items 16w .. 16w + 15.

__kernel void KERNEL(reduce_sum)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                                 __local float16* scratch) {
    const size_t row = get_group_id(0);
    const size_t base = x_at + row * length;
    float16 sum = SUM_IDENTITY;
    for (size_t k = get_local_id(0) * LANES; k < length; k += get_local_size(0) * LANES)
        sum = sum + LOAD_LANES_IN(x, base, k, length, SUM_IDENTITY);
    const float total = lanes_sum(sum, scratch);
    if (get_local_id(0) == 0) STORE_OUT(y, y_at + row, total);
}

__kernel void KERNEL(reduce_max)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                                 __local float16* scratch) {
    const size_t row = get_group_id(0);
    const size_t base = x_at + row * length;
    float16 result = -INFINITY;
    for (size_t k = get_local_id(0) * LANES; k < length; k += get_local_size(0) * LANES)
        result = maximum16(result, LOAD_LANES_IN(x, base, k, length, -INFINITY));
    const float total = lanes_max(result, scratch);
    if (get_local_id(0) == 0) STORE_OUT(y, y_at + row, total);
}
