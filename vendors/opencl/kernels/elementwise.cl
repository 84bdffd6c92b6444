// elementwise: out[i] = f(a[i], b[i]) or mul_add(a[i], b[i], c[i]), one
// work-item per element, computed in f32 and rounded once by the store;
// instantiated with IN = OUT. Work-items past `count` do nothing.

#define BINARY_KERNEL(NAME, EXPRESSION)                                                          \
    __kernel void KERNEL(elementwise_##NAME)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at, \
                                     __global out_t* out, ulong out_at, ulong count) {             \
        const size_t i = get_global_id(0);                                                     \
        if (i >= count) return;                                                                \
        const float x = LOAD_IN(a, a_at + i);                                                  \
        const float y = LOAD_IN(b, b_at + i);                                                  \
        STORE_OUT(out, out_at + i, EXPRESSION);                                                \
    }

BINARY_KERNEL(add, x + y)
BINARY_KERNEL(mul, x * y)
BINARY_KERNEL(maximum, maximum(x, y))

// round(round(a * b) + c): the product is rounded to the output dtype first.
__kernel void KERNEL(elementwise_mul_add)(__global const in_t* a, ulong a_at, __global const in_t* b, ulong b_at,
                                  __global const in_t* c, ulong c_at, __global out_t* out, ulong out_at,
                                  ulong count) {
    const size_t i = get_global_id(0);
    if (i >= count) return;
    const float product = ROUND_OUT(LOAD_IN(a, a_at + i) * LOAD_IN(b, b_at + i));
    STORE_OUT(out, out_at + i, product + LOAD_IN(c, c_at + i));
}

