// softmax over the last axis: one work-group per row. m = row maximum,
// s = sum of exp(x - m), y = exp(x - m) / s; exp is evaluated twice per
// element rather than kept, which costs no memory and gives the same value.

__kernel void KERNEL(softmax)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                      __local float* scratch) {
    const size_t row = get_group_id(0);
    const size_t lid = get_local_id(0);
    const size_t step = get_local_size(0);
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    float m = -INFINITY;
    for (size_t k = lid; k < length; k += step) m = maximum(m, LOAD_IN(x, x_base + k));
    m = work_group_max(m, scratch);
    float s = SUM_IDENTITY;
    for (size_t k = lid; k < length; k += step) s = s + exp(LOAD_IN(x, x_base + k) - m);
    s = work_group_sum(s, scratch);
    for (size_t k = lid; k < length; k += step) STORE_OUT(y, y_base + k, exp(LOAD_IN(x, x_base + k) - m) / s);
}
