// cast: y[i] = x[i] converted, one thread per element: widening by load,
// narrowing by the rounding store. Threads past `count` do nothing.
namespace kcs {

template <typename In, typename Out>
__global__ void cast(const In* x, Out* y, index_t count) {
    const index_t i = global_index();
    if (i >= count) return;
    store(y, i, load(x, i));
}

}  // namespace kcs
