// Shared by every program of the OpenCL adapter: element access for the
// storage dtypes, and the work-group reductions. A program is this file and
// one family's file, the latter once per dtype configuration with IN and
// OUT defined (f32, f16, bf16) and KERNEL(name) naming the kernel for the
// configuration, e.g. reduce_sum_f16_f32 (see src/programs.cpp).
//
// Every value is computed in f32. f16 is only ever stored: vload_half and
// vstore_half_rte need no cl_khr_fp16. bf16 travels as ushort, widened by a
// shift and narrowed with round-to-nearest-even here, since OpenCL C has no
// bf16 type.

// The claims say fp_contract: off, so a * b + c is never fused behind the
// kernel's back (OpenCL C lets the compiler contract by default).
#pragma OPENCL FP_CONTRACT OFF

#define KCS_CAT_(a, b) a##b
#define KCS_CAT(a, b) KCS_CAT_(a, b)

typedef float f32_t;
typedef half f16_t;
typedef ushort bf16_t;

inline float load_f32(__global const float* p, size_t i) { return p[i]; }
inline float load_f16(__global const half* p, size_t i) { return vload_half(i, p); }
inline float load_bf16(__global const ushort* p, size_t i) { return as_float((uint)p[i] << 16); }

// Elements i .. i + 15 at once (load_lanes_*, below).
inline float16 load16_f32(__global const float* p, size_t i) { return vload16(0, p + i); }
inline float16 load16_f16(__global const half* p, size_t i) { return vload_half16(0, p + i); }
inline float16 load16_bf16(__global const ushort* p, size_t i) {
    return as_float16(convert_uint16(vload16(0, p + i)) << 16);
}

// f32 -> bf16 bits, round to nearest even; a NaN stays a NaN (quiet bit set).
inline ushort bf16_bits(float value) {
    uint bits = as_uint(value);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return (ushort)((bits >> 16) | 0x0040u);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return (ushort)(bits >> 16);
}

inline void store_f32(__global float* p, size_t i, float value) { p[i] = value; }
inline void store_f16(__global half* p, size_t i, float value) { vstore_half_rte(value, i, p); }
inline void store_bf16(__global ushort* p, size_t i, float value) { p[i] = bf16_bits(value); }

// value rounded to the dtype and widened back: what a register of that
// dtype would hold.
inline float round_f32(float value) { return value; }
inline float round_f16(float value) {
    ushort stored;  // no half variables without cl_khr_fp16: the bits, through a half pointer
    vstore_half_rte(value, 0, (__private half*)&stored);
    return vload_half(0, (__private const half*)&stored);
}
inline float round_bf16(float value) { return as_float((uint)bf16_bits(value) << 16); }

// The configuration's types and accessors: macros, expanded where used, so
// they follow IN and OUT from one configuration to the next.
#define in_t KCS_CAT(IN, _t)
#define out_t KCS_CAT(OUT, _t)
#define LOAD_IN(p, i) KCS_CAT(load_, IN)(p, i)
#define STORE_OUT(p, i, v) KCS_CAT(store_, OUT)(p, i, v)
#define ROUND_OUT(v) KCS_CAT(round_, OUT)(v)

// The IEEE 754-2019 maximum, for reduce_max, softmax, attention and
// elementwise maximum: NaN if either operand is NaN (a + b quiets a
// signalling one), otherwise the larger, with -0 below +0. Not OpenCL's
// fmax, which is IEEE 754-2008 maxNum and returns the other operand of a
// NaN (FINDINGS.md: the first version used it and failed C-EXC-01).
inline float maximum(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}

// The sums start from -0, the identity of IEEE addition: a row of -0 sums
// to -0, and a work-item with no elements changes nothing.
#define SUM_IDENTITY (-0.0f)

// ---- Lanes: a row reduction of local size L run by L / 16 work-items ----
//
// Work-item w carries the 16 consecutive virtual work-items 16w .. 16w + 15
// of the local size L in the lanes of a float16: lane j does exactly what
// virtual work-item 16w + j would (its strided slice of the row, in index
// order), and the tree below combines the L partials pairwise as a tree
// over L scalar work-items would (i with i + L/2, then i with i + L/4, ...,
// L a power of two), so the result depends on the values and L only. The
// bits are those of L scalar work-items, while a CPU device (PoCL) runs
// each step as one vector operation instead of 16 scalar ones.
#define LANES 16

// Elements k .. k + 15 of the row at `base`, of `length` elements; the
// places past the end hold `identity` (what a virtual work-item past the
// end would add: -0 to a sum, -inf to a maximum).
#define KCS_LANE_ACCESS(T)                                                                              \
    inline float16 load_lanes_##T(__global const T##_t* p, size_t base, size_t k, size_t length,        \
                                  float identity) {                                                     \
        if (k + LANES <= length) return load16_##T(p, base + k);                                        \
        float values[LANES];                                                                            \
        for (int j = 0; j < LANES; ++j) values[j] = k + j < length ? load_##T(p, base + k + j) : identity; \
        return vload16(0, values);                                                                      \
    }                                                                                                   \
    inline void store_lanes_##T(__global T##_t* p, size_t base, size_t k, size_t length, float16 value) { \
        float values[LANES];                                                                            \
        vstore16(value, 0, values);                                                                     \
        for (int j = 0; j < LANES && k + j < length; ++j) store_##T(p, base + k + j, values[j]);        \
    }
KCS_LANE_ACCESS(f32)
KCS_LANE_ACCESS(f16)
KCS_LANE_ACCESS(bf16)
#define LOAD_LANES_IN(p, base, k, length, identity) KCS_CAT(load_lanes_, IN)(p, base, k, length, identity)
#define STORE_LANES_OUT(p, base, k, length, value) KCS_CAT(store_lanes_, OUT)(p, base, k, length, value)

// v with its places k + j >= length (past the end of the row) set to `identity`.
inline float16 lanes_in_row(float16 v, size_t k, size_t length, float identity) {
    if (k + LANES <= length) return v;
    const int live = (int)(length - k);  // below 16
    const int16 place = (int16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return select(v, (float16)(identity), place >= live);
}

// exp lane by lane, by the scalar exp: PoCL's exp(float16) gives other
// bits than its exp(float) for some arguments, and every kernel of the
// adapter should compute the same exp.
inline float16 exp_lanes(float16 v) {
    float values[LANES];
    vstore16(v, 0, values);
    for (int j = 0; j < LANES; ++j) values[j] = exp(values[j]);
    return vload16(0, values);
}

// maximum() lane by lane.
inline float16 maximum16(float16 a, float16 b) {
    const int16 equal = a == b;
    float16 result = select(b, a, a > b);
    result = select(result, select(a, b, signbit(a)), equal);
    return select(result, a + b, isnan(a) | isnan(b));
}

// The first steps of the tree over the L virtual work-items, while the
// halves are 16 or more apart: whole float16s, work-item i with i + half,
// added (or, for `maximum`, by maximum16). Every work-item gets the float16
// of the 16 partials left, which the callers combine within it.
inline float16 lanes_tree(float16 value, __local float16* scratch, bool maximum) {
    const size_t lid = get_local_id(0);
    scratch[lid] = value;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t half_size = get_local_size(0) / 2; half_size > 0; half_size /= 2) {
        if (lid < half_size) {
            const float16 a = scratch[lid], b = scratch[lid + half_size];
            scratch[lid] = maximum ? maximum16(a, b) : a + b;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const float16 left = scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    return left;
}

// The sum over the L virtual work-items: the tree's last steps pair lanes
// j and j + 8, then j and j + 4, ..., as the scalar tree pairs them.
inline float lanes_sum(float16 value, __local float16* scratch) {
    const float16 v16 = lanes_tree(value, scratch, false);
    const float8 v8 = v16.lo + v16.hi;
    const float4 v4 = v8.lo + v8.hi;
    const float2 v2 = v4.lo + v4.hi;
    return v2.lo + v2.hi;
}

// The maximum over the L virtual work-items, by the same tree.
inline float lanes_max(float16 value, __local float16* scratch) {
    const float16 v16 = lanes_tree(value, scratch, true);
    const float16 v8 = maximum16(v16, v16.s89abcdef01234567);
    const float16 v4 = maximum16(v8, v8.s4567012389abcdef);
    const float16 v2 = maximum16(v4, v4.s23016745ab89efcd);
    return maximum16(v2, v2.s1032547698badcfe).s0;
}
