// gather: out[n, :] = table[index[n], :]. Instantiated with ELEMENT uint
// or ushort (the table's bits: the copy never goes through a float register,
// so NaN payloads and subnormals arrive unchanged) and INDEX int or long.
// One work-item per index position, copying its row; the global size is
// rounded up to whole work-groups and work-items past the end do nothing.
// Under the raise policy an out-of-range index writes nothing for its row
// and records the smallest such position in *bad (INT_MAX when none), also
// when the rows are empty (C = 0).

__kernel void KERNEL(gather)(__global const ELEMENT* table, ulong table_at, __global const INDEX* index, ulong index_at,
                     __global ELEMENT* out, ulong out_at, ulong rows, ulong columns, ulong positions,
                     __global int* bad) {
    const size_t n = get_global_id(0);
    if (n >= positions) return;
    const long row = (long)index[index_at + n];
    if (row < 0 || row >= (long)rows) {
        atomic_min(bad, (int)min(n, (size_t)INT_MAX));
        return;
    }
    __global const ELEMENT* source = table + table_at + (size_t)row * columns;
    __global ELEMENT* target = out + out_at + n * columns;
    for (size_t c = 0; c < columns; ++c) target[c] = source[c];
}
