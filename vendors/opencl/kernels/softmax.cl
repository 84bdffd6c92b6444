// softmax over the last axis: one work-group per row. m = row maximum,
// s = sum of exp(x - m), y = exp(x - m) / s; exp is evaluated twice per
// element rather than kept, which costs no memory and gives the same value.
// In lanes (common.cl): work-item w does the work of the virtual
// work-items 16w .. 16w + 15, 16 elements at a time.

__kernel void KERNEL(softmax)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong length,
                              __local float16* scratch) {
    const size_t row = get_group_id(0);
    const size_t first = get_local_id(0) * LANES;
    const size_t step = get_local_size(0) * LANES;
    const size_t x_base = x_at + row * length;
    const size_t y_base = y_at + row * length;
    float16 m = -INFINITY;
    for (size_t k = first; k < length; k += step) m = maximum16(m, LOAD_LANES_IN(x, x_base, k, length, -INFINITY));
    const float row_max = lanes_max(m, scratch);
    float16 s = SUM_IDENTITY;
    for (size_t k = first; k < length; k += step) {
        const float16 e = exp_lanes(LOAD_LANES_IN(x, x_base, k, length, 0.0f) - row_max);
        s = s + lanes_in_row(e, k, length, SUM_IDENTITY);
    }
    const float row_sum = lanes_sum(s, scratch);
    for (size_t k = first; k < length; k += step)
        STORE_LANES_OUT(y, y_base, k, length, exp_lanes(LOAD_LANES_IN(x, x_base, k, length, 0.0f) - row_max) / row_sum);
}
