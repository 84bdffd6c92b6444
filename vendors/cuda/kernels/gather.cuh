// gather: out[n, :] = table[index[n], :]. Instantiated with Element
// unsigned int or unsigned short (the table's bits: the copy never goes
// through a float register, so NaN payloads and subnormals arrive
// unchanged) and Index int or long long. One thread per index position,
// copying its row. Under the raise policy an out-of-range index writes
// nothing for its row and records the smallest such position in *bad
// (INT_MAX when none), also when the rows are empty (C = 0).
namespace kcs {

template <typename Element, typename Index>
__global__ void gather(const Element* table, const Index* index, Element* out, index_t rows, index_t columns,
                       index_t positions, int* bad) {
    const index_t n = global_index();
    if (n >= positions) return;
    const long long row = static_cast<long long>(index[n]);
    if (row < 0 || row >= static_cast<long long>(rows)) {
        atomicMin(bad, n < 2147483647ull ? static_cast<int>(n) : 2147483647);
        return;
    }
    const Element* source = table + static_cast<index_t>(row) * columns;
    Element* target = out + n * columns;
    for (index_t c = 0; c < columns; ++c) target[c] = source[c];
}

}  // namespace kcs
