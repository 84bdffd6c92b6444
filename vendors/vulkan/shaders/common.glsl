// Shared by every compute shader of the Vulkan adapter, as
// vendors/opencl/kernels/common.cl is for OpenCL: element access for the
// storage dtypes, the work-group index, and the work-group reductions. A
// module is one family's .comp compiled with IN and OUT defined (f32, f16,
// bf16) and the family's own defines (see shaders.cmake). The including
// .comp declares its local size before this file: gl_WorkGroupSize is used
// below.
//
// Every value is computed in f32. f16 is only ever stored (16-bit storage,
// no shaderFloat16 needed); bf16 travels as uint16_t bits, widened by a shift
// and narrowed with round-to-nearest-even here, since GLSL has no bf16 type.
//
// The claims say fp_contract: off: a * b + c that could be fused is written
// into a `precise` variable (SPIR-V NoContraction), like OpenCL's
// FP_CONTRACT OFF.

#extension GL_EXT_shader_16bit_storage : require

#define KCS_CAT_(a, b) a##b
#define KCS_CAT(a, b) KCS_CAT_(a, b)

// Buffer element type per dtype.
#define f32_t float
#define f16_t float16_t
#define bf16_t uint16_t

// Element value -> f32.
#define load_f32(v) (v)
#define load_f16(v) float(v)
#define load_bf16(v) uintBitsToFloat(uint(v) << 16)

// f32 -> bf16 bits, round to nearest even; a NaN stays a NaN (quiet bit set).
uint bf16_bits(float value) {
    uint bits = floatBitsToUint(value);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return (bits >> 16) | 0x0040u;
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return bits >> 16;
}

// f32 -> element value, rounded once.
#define store_f32(v) (v)
#define store_f16(v) float16_t(v)
#define store_bf16(v) uint16_t(bf16_bits(v))

// value rounded to the dtype and widened back: what a register of that
// dtype would hold.
#define round_f32(v) (v)
#define round_f16(v) float(float16_t(v))
#define round_bf16(v) uintBitsToFloat(bf16_bits(v) << 16)

// The configuration's types and accessors, following IN and OUT.
#define in_t KCS_CAT(IN, _t)
#define out_t KCS_CAT(OUT, _t)
#define LOAD_IN(buffer, i) KCS_CAT(load_, IN)(buffer[i])
#define STORE_OUT(buffer, i, v) buffer[i] = KCS_CAT(store_, OUT)(v)
#define ROUND_OUT(v) KCS_CAT(round_, OUT)(v)

#define KCS_NEG_INF uintBitsToFloat(0xff800000u)

bool sign_bit(float value) { return (floatBitsToUint(value) & 0x80000000u) != 0u; }

// The host may need more than 65535 work-groups: it dispatches a 2D grid
// and this is the linear group index (the row of a row kernel).
uint group_index() { return gl_WorkGroupID.x + gl_NumWorkGroups.x * gl_WorkGroupID.y; }

// The element of a pointwise kernel.
uint global_index() { return group_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x; }

// The IEEE 754-2019 maximum, for reduce_max, softmax, attention and
// elementwise maximum: NaN if either operand is NaN (a + b quiets a
// signalling one), otherwise the larger, with -0 below +0. Not GLSL's max(),
// whose result for a NaN operand is undefined.
float maximum(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return sign_bit(a) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}

// The sums start from -0, the identity of IEEE addition: a row of -0 sums
// to -0, and an invocation with no elements changes nothing.
#define SUM_IDENTITY (-0.0)

#ifdef KCS_ROW_KERNEL
// Row kernels: one work-group per row, the local size a power of two.
shared float scratch[gl_WorkGroupSize.x];

// The sum of every invocation's value over the work-group, added pairwise in
// a fixed tree, so the result depends on the values and the local size only.
// Every invocation gets it. (barrier() also orders the shared memory.)
float work_group_sum(float value) {
    const uint lid = gl_LocalInvocationID.x;
    scratch[lid] = value;
    barrier();
    for (uint half_size = gl_WorkGroupSize.x / 2u; half_size > 0u; half_size /= 2u) {
        if (lid < half_size) scratch[lid] = scratch[lid] + scratch[lid + half_size];
        barrier();
    }
    const float total = scratch[0];
    barrier();
    return total;
}

// The maximum over the work-group, by the same tree.
float work_group_max(float value) {
    const uint lid = gl_LocalInvocationID.x;
    scratch[lid] = value;
    barrier();
    for (uint half_size = gl_WorkGroupSize.x / 2u; half_size > 0u; half_size /= 2u) {
        if (lid < half_size) scratch[lid] = maximum(scratch[lid], scratch[lid + half_size]);
        barrier();
    }
    const float result = scratch[0];
    barrier();
    return result;
}
#endif  // KCS_ROW_KERNEL
