// elementwise: out[i] = f(a[i], b[i]) or mul_add(a[i], b[i], c[i]), one
// thread per element, computed in f32 and rounded once by the store;
// instantiated with In = Out. Threads past `count` do nothing.
namespace kcs {

#define KCS_BINARY_KERNEL(NAME, EXPRESSION)                                              \
    template <typename In, typename Out>                                                 \
    __global__ void elementwise_##NAME(const In* a, const In* b, Out* out, index_t count) { \
        const index_t i = global_index();                                                \
        if (i >= count) return;                                                          \
        const float x = load(a, i);                                                      \
        const float y = load(b, i);                                                      \
        store(out, i, EXPRESSION);                                                       \
    }

KCS_BINARY_KERNEL(add, x + y)
KCS_BINARY_KERNEL(mul, x * y)
KCS_BINARY_KERNEL(maximum, maximum(x, y))

// round(round(a * b) + c): the product is rounded to the output dtype
// first. For f32 that is a * b + c as written, which -fmad=true contracts.
template <typename In, typename Out>
__global__ void elementwise_mul_add(const In* a, const In* b, const In* c, Out* out, index_t count) {
    const index_t i = global_index();
    if (i >= count) return;
    const float product = round_to<Out>(load(a, i) * load(b, i));
    store(out, i, product + load(c, i));
}

}  // namespace kcs
