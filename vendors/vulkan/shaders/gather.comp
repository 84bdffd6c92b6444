// gather: out[n, :] = table[index[n], :]. Defines: TABLE_U16 (else the table
// is u32) and INDEX_I64 (else i32). The table's bits are copied (uint or
// uint16_t, never through a float register, so NaN payloads and subnormals
// arrive unchanged). One invocation per index position, copying its row;
// invocations past the end do nothing. Under the raise policy an
// out-of-range index writes nothing for its row and records the smallest
// such position in bad[0] (the host sets INT_MAX first), also when the rows
// are empty (columns = 0).
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;
#include "common.glsl"

#ifdef TABLE_U16
#define element_t uint16_t
#else
#define element_t uint
#endif

layout(set = 0, binding = 0) readonly buffer TableBuffer { element_t table[]; };
#ifdef INDEX_I64
// i64 as two little-endian uint words: no shaderInt64 needed.
layout(set = 0, binding = 1) readonly buffer IndexBuffer { uint index_words[]; };
#else
layout(set = 0, binding = 1) readonly buffer IndexBuffer { int index[]; };
#endif
layout(set = 0, binding = 2) writeonly buffer OutBuffer { element_t gathered[]; };
layout(set = 0, binding = 3) buffer BadBuffer { int bad[]; };
layout(push_constant) uniform Params { uint table_at; uint index_at; uint out_at; uint rows; uint columns; uint positions; } p;

void main() {
    const uint n = global_index();
    if (n >= p.positions) return;
#ifdef INDEX_I64
    const uint word = 2u * (p.index_at + n);
    const uint row = index_words[word];
    const bool in_range = index_words[word + 1u] == 0u && row < p.rows;  // negative: high word 0xFFFFFFFF
#else
    const int value = index[p.index_at + n];
    const uint row = uint(value);
    const bool in_range = value >= 0 && row < p.rows;
#endif
    if (!in_range) {
        atomicMin(bad[0], int(min(n, 0x7fffffffu)));
        return;
    }
    const uint source = p.table_at + row * p.columns;
    const uint target = p.out_at + n * p.columns;
    for (uint c = 0u; c < p.columns; ++c) gathered[target + c] = table[source + c];
}
