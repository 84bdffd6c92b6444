// reduce_sum and reduce_max over the last axis: one work-group per row.
// Work-item i takes elements i, i + L, i + 2L, ... (L the local size) in
// order, then the work-group combines the partials by a fixed tree.

__kernel void KERNEL(reduce_sum)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                                 __local float* scratch) {
    const size_t row = get_group_id(0);
    const size_t base = x_at + row * length;
    float sum = SUM_IDENTITY;
    for (size_t k = get_local_id(0); k < length; k += get_local_size(0)) sum = sum + LOAD_IN(x, base + k);
    sum = work_group_sum(sum, scratch);
    if (get_local_id(0) == 0) STORE_OUT(y, y_at + row, sum);
}

__kernel void KERNEL(reduce_max)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                                 __local float* scratch) {
    const size_t row = get_group_id(0);
    const size_t base = x_at + row * length;
    float result = -INFINITY;
    for (size_t k = get_local_id(0); k < length; k += get_local_size(0)) result = maximum(result, LOAD_IN(x, base + k));
    result = work_group_max(result, scratch);
    if (get_local_id(0) == 0) STORE_OUT(y, y_at + row, result);
}
