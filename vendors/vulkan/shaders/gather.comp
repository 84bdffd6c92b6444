// gather: out[n, :] = table[index[n], :]. Defines: TABLE_U16 (else the table
// is u32) and INDEX_I64 (else i32). The table's bits are copied (uint or
// uint16_t, never through a float register, so NaN payloads and subnormals
// arrive unchanged). One invocation per output element (n, c), with no
// loop: lavapipe ends any loop after 65535 iterations (gallivm's
// LP_MAX_TGSI_LOOP_ITERATIONS), which left the columns of a longer row
// unwritten when one invocation copied the row. Invocations past the end do
// nothing. Under the raise policy an out-of-range index writes nothing for
// its row and records the smallest such position in bad[0] (the host sets
// INT_MAX first), also when the rows are empty (columns = 0: one invocation
// per position).
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
layout(push_constant) uniform Params { uint table_at; uint index_at; uint out_at; uint rows; uint columns; uint positions; uint count; } p;

void main() {
    const uint i = global_index();
    if (i >= p.count) return;
    const uint width = max(p.columns, 1u);
    const uint n = i / width, c = i % width;
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
        if (c == 0u) atomicMin(bad[0], int(min(n, 0x7fffffffu)));
        return;
    }
    if (p.columns == 0u) return;
    gathered[p.out_at + n * p.columns + c] = table[p.table_at + row * p.columns + c];
}
