// cast: y[i] = x[i] converted, one work-item per element: widening by
// load, narrowing by the rounding store. Work-items past `count` do nothing.

__kernel void KERNEL(cast)(__global const in_t* x, ulong x_at, __global out_t* y, ulong y_at, ulong count) {
    const size_t i = get_global_id(0);
    if (i >= count) return;
    STORE_OUT(y, y_at + i, LOAD_IN(x, x_at + i));
}
