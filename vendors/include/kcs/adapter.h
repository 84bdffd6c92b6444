/*
 * kcs/adapter.h: the KCS adapter ABI, version 1.1.
 *
 * A backend adapter is a shared library that exports two C functions:
 * kcs_adapter_negotiate, which agrees on an ABI version with the harness,
 * and kcs_adapter_entry, which returns a constant table of functions for
 * it (KCS-ABI-1 to 4). The harness
 * loads it in a worker process (kcs-worker), so a crash, hang or wild
 * write in the adapter costs the call that caused it, never the run.
 *
 * The harness owns the contents of memory; the adapter owns the memory.
 * The adapter allocates buffers on its device and copies bytes in and out
 * of them on request; an operator runs over tensors that name a buffer and
 * a byte offset. That lets the harness poison outputs and surround every
 * tensor with canary guard zones on the device itself.
 *
 * Plain C99. Every struct passed in either direction starts with its size
 * where it may grow, so later minor versions can append fields; the arrays
 * an op points to carry their element sizes for the same reason.
 *
 * Each rule below is numbered (KCS-ABI-n). vendors/ABI.md lists them in
 * one table: what breaks when an adapter does not keep it, and whether
 * `kcs adapter check` enforces it (its failing steps name the number).
 *
 * KCS-ABI-6, threading: the harness calls one adapter instance from one
 * thread at a time, except where a function says otherwise. Different
 * instances (separate open calls) may be used from different threads
 * concurrently and must not disturb each other.
 *
 * Lifetime:  negotiate -> entry -> open -> { info | supports | alloc |
 *            write | read | run | release | last_error }* -> close.
 * KCS-ABI-18: nothing but last_error may be called after a function
 * returned KCS_DEVICE_LOST; then only close.
 */
#ifndef KCS_ADAPTER_H
#define KCS_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- versions ---------------------------------------------------------
 * KCS-ABI-1: a version is (major << 16) | minor, except 1.0, which is the
 * value 1 (it predates the encoding; no other value below 1 << 16 is a
 * version). A minor version only appends: a harness of 1.n drives an
 * adapter of 1.m for any m <= n. */
#define KCS_ABI_VERSION(major, minor) ((uint32_t)(major) << 16 | (uint32_t)(minor))
#define KCS_ADAPTER_ABI_VERSION_1_0 1u
#define KCS_ADAPTER_ABI_VERSION_1_1 KCS_ABI_VERSION(1, 1)
/* The newest version this header describes. */
#define KCS_ADAPTER_ABI_VERSION KCS_ADAPTER_ABI_VERSION_1_1
#define KCS_ADAPTER_ENTRY_SYMBOL "kcs_adapter_entry"
#define KCS_ADAPTER_NEGOTIATE_SYMBOL "kcs_adapter_negotiate"

#if defined(_WIN32)
#define KCS_ADAPTER_EXPORT __declspec(dllexport)
#else
#define KCS_ADAPTER_EXPORT __attribute__((visibility("default")))
#endif

/* ---- status ---------------------------------------------------------- */

typedef int32_t kcs_status;
enum {
    KCS_OK = 0,
    /* The adapter declines this operator, dtype configuration or attribute
     * value. Not a failure: the harness records UNSUPPORTED. */
    KCS_UNSUPPORTED = 1,
    /* An index input (gather) is out of range and the adapter raises, as its
     * claim oob_policy: raise promises. The output's contents are then
     * unspecified. */
    KCS_OUT_OF_RANGE = 2,
    /* A malformed request: unknown handle, offset or size outside a buffer,
     * rank above KCS_MAX_RANK, inconsistent shapes, bad option. */
    KCS_INVALID_ARGUMENT = 3,
    KCS_OUT_OF_MEMORY = 4,
    /* The device or driver failed; the call may be retried. */
    KCS_DEVICE_ERROR = 5,
    /* The device is gone; only last_error and close may follow. */
    KCS_DEVICE_LOST = 6,
    KCS_INTERNAL_ERROR = 7
};

/* ---- element types --------------------------------------------------- */

typedef uint32_t kcs_dtype;
enum {
    KCS_DTYPE_F32 = 1,  /* IEEE binary32 */
    KCS_DTYPE_F16 = 2,  /* IEEE binary16 */
    KCS_DTYPE_BF16 = 3, /* bfloat16: the high half of a binary32 */
    KCS_DTYPE_F64 = 4,  /* IEEE binary64 */
    KCS_DTYPE_I8 = 5,
    KCS_DTYPE_I32 = 6,
    KCS_DTYPE_I64 = 7,
    KCS_DTYPE_U8 = 8
};

/* ---- buffers and tensors --------------------------------------------- */

/* An adapter-chosen handle for one device buffer. 0 is never valid. */
typedef uint64_t kcs_buffer;

#define KCS_MAX_RANK 8

/* A tensor lives in a buffer at a byte offset (KCS-ABI-14). Elements are little-endian
 * in the dtype's IEEE or two's-complement encoding. The offset is a
 * multiple of the element size; strides are in elements, and the harness
 * passes row-major contiguous strides (strides[rank-1] = 1) unless the
 * operator's definition says otherwise. rank 0 is a scalar. */
typedef struct kcs_tensor {
    kcs_buffer buffer;
    uint64_t offset;
    kcs_dtype dtype;
    uint32_t rank;
    int64_t shape[KCS_MAX_RANK];
    int64_t strides[KCS_MAX_RANK];
} kcs_tensor;

/* ---- operators -------------------------------------------------------- */

typedef uint32_t kcs_attribute_type;
enum { KCS_ATTR_BOOL = 1, KCS_ATTR_INT = 2, KCS_ATTR_FLOAT = 3, KCS_ATTR_STRING = 4 };

/* A named attribute of the operator (spec/v1/operators/NAME.yaml,
 * "attributes"): exactly one of the value fields is meaningful. A name
 * appears at most once in an op. */
typedef struct kcs_attribute {
    const char* name;
    kcs_attribute_type type;
    int64_t int_value;     /* BOOL (0 or 1) and INT */
    double float_value;    /* FLOAT */
    const char* string_value; /* STRING, UTF-8, NUL-terminated */
} kcs_attribute;

/* One operator invocation. name is the catalog's operator id ("matmul",
 * "softmax", "unary", "elementwise", "cast", "gather", ...); function names
 * the member of a family ("exp", "mul_add") and is NULL otherwise.
 * accumulate is the dtype the catalog declares for the reductions inside
 * the operator (KCS_DTYPE_F32 in v1), or 0 when it has none.
 * KCS-ABI-12: everything the op points to is owned by the harness and
 * valid only for the duration of the call.
 * KCS-ABI-13: struct_size is at least the size of the 1.0 kcs_op; an
 * adapter accepts any struct_size at least as large as the fields it reads
 * and never requires its own sizeof(kcs_op). From 1.1 the harness says how
 * large one attribute and one tensor are in the arrays (they may grow in
 * later minor versions): read the elements with kcs_op_attribute(),
 * kcs_op_input() and kcs_op_output() below, never by indexing the arrays. */
typedef struct kcs_op {
    uint32_t struct_size; /* sizeof(kcs_op) of the harness */
    const char* name;
    const char* function;
    kcs_dtype accumulate;
    uint32_t attribute_count;
    const kcs_attribute* attributes;
    uint32_t input_count;
    const kcs_tensor* inputs;
    uint32_t output_count;
    const kcs_tensor* outputs;
    /* 1.1 */
    uint32_t attribute_size; /* bytes from one attributes[] element to the next: sizeof(kcs_attribute) of the harness */
    uint32_t tensor_size;    /* the same for inputs[] and outputs[]: sizeof(kcs_tensor) of the harness */
} kcs_op;

/* The size of a 1.0 kcs_op: a struct_size below this is malformed. */
#define KCS_OP_SIZE_1_0 offsetof(kcs_op, attribute_size)

/* Element strides of an op's arrays: the sizes it carries, or the 1.0
 * sizes (which are this header's) when it predates them. */
static inline size_t kcs_op_attribute_stride(const kcs_op* op) {
    return op->struct_size >= offsetof(kcs_op, tensor_size) + sizeof(uint32_t) ? op->attribute_size
                                                                               : sizeof(kcs_attribute);
}
static inline size_t kcs_op_tensor_stride(const kcs_op* op) {
    return op->struct_size >= offsetof(kcs_op, tensor_size) + sizeof(uint32_t) ? op->tensor_size
                                                                               : sizeof(kcs_tensor);
}
static inline const kcs_attribute* kcs_op_attribute(const kcs_op* op, uint32_t i) {
    return (const kcs_attribute*)((const char*)op->attributes + (size_t)i * kcs_op_attribute_stride(op));
}
static inline const kcs_tensor* kcs_op_input(const kcs_op* op, uint32_t i) {
    return (const kcs_tensor*)((const char*)op->inputs + (size_t)i * kcs_op_tensor_stride(op));
}
static inline const kcs_tensor* kcs_op_output(const kcs_op* op, uint32_t i) {
    return (const kcs_tensor*)((const char*)op->outputs + (size_t)i * kcs_op_tensor_stride(op));
}

/* ---- information -------------------------------------------------------- */

/* Filled by info(). KCS-ABI-7: every string is owned by the adapter,
 * NUL-terminated UTF-8, and valid until close. None may be NULL; use ""
 * for unknown, but adapter_name, adapter_version, vendor and device say
 * something. */
typedef struct kcs_info {
    uint32_t struct_size;     /* set by the harness before the call */
    const char* adapter_name;    /* e.g. "opencl" */
    const char* adapter_version; /* e.g. "1.2.0" */
    const char* vendor;          /* device vendor */
    const char* device;          /* device name */
    const char* driver_version;
    const char* notes;           /* anything a report reader should know, one
                                    item per line, e.g. "f16 stored as half,
                                    computed in f32" */
} kcs_info;

/* ---- the function table ---------------------------------------------- */

typedef struct kcs_adapter kcs_adapter; /* one open device, opaque */

/* KCS-ABI-4: abi_version is the version the entry was asked for; struct_size
 * is at least the size of that version's table (1.0 and 1.1: this one);
 * every function is set and name is not empty. */
typedef struct kcs_adapter_api {
    uint32_t abi_version; /* the ABI version this table implements */
    uint32_t struct_size; /* sizeof(kcs_adapter_api) of the adapter */
    const char* name;     /* short adapter name, e.g. "reference-cpu" */

    /* Opens a device. options are option_count strings "key=value" (e.g.
     * "device=1", "threads=4"). KCS-ABI-5: an unknown key or bad value
     * fails with KCS_INVALID_ARGUMENT and a message in last_error(NULL).
     * The strings are valid for the duration of the call only. */
    kcs_status (*open)(const char* const* options, uint32_t option_count, kcs_adapter** out);

    /* Releases every buffer and the device. adapter may be NULL. */
    void (*close)(kcs_adapter* adapter);

    kcs_status (*info)(kcs_adapter* adapter, kcs_info* out);

    /* KCS-ABI-8: KCS_OK if run(op) would compute it, KCS_UNSUPPORTED if
     * not (an unknown operator included), and KCS_INVALID_ARGUMENT for a
     * malformed op (NULL name, unknown dtype, rank above KCS_MAX_RANK).
     * Decides from the name, function, dtypes, shapes and attributes; the
     * tensors' buffers may be 0 and must not be touched. The harness asks
     * it before it generates any data for a case, and runs only what it
     * accepted. */
    kcs_status (*supports)(kcs_adapter* adapter, const kcs_op* op);

    /* KCS-ABI-9: a new buffer of `bytes` bytes (0 allowed: a valid handle
     * of an empty buffer). Contents are unspecified. Any byte offset may
     * later be written or read; the adapter handles alignment itself. */
    kcs_status (*alloc)(kcs_adapter* adapter, uint64_t bytes, kcs_buffer* out);

    /* KCS-ABI-10: frees a buffer. An unknown or released handle returns
     * KCS_INVALID_ARGUMENT. */
    kcs_status (*release)(kcs_adapter* adapter, kcs_buffer buffer);

    /* KCS-ABI-11: copies bytes between host memory and a buffer. offset +
     * bytes must lie within the buffer (else KCS_INVALID_ARGUMENT, nothing
     * copied; an offset + bytes past 2^64 included).
     * Synchronous: when write returns, src may be reused; when read
     * returns, dst holds the data. bytes may be 0. */
    kcs_status (*write)(kcs_adapter* adapter, kcs_buffer buffer, uint64_t offset, const void* src,
                        uint64_t bytes);
    kcs_status (*read)(kcs_adapter* adapter, kcs_buffer buffer, uint64_t offset, void* dst,
                       uint64_t bytes);

    /* Runs one operator. KCS-ABI-15: synchronous: the outputs are complete
     * when it returns. It must write every element of every output and
     * nothing outside them, and read nothing but its inputs (nor write
     * them). KCS-ABI-16: a tensor whose offset is not a multiple of its
     * element size, or that does not lie within its buffer, gives
     * KCS_INVALID_ARGUMENT and nothing is computed; an operator it does
     * not compute gives KCS_UNSUPPORTED (as supports() would). */
    kcs_status (*run)(kcs_adapter* adapter, const kcs_op* op);

    /* KCS-ABI-17: a human-readable message about the last failed call on
     * this instance (or, with NULL, about the last failed open on this
     * thread); "" before any failure. Owned by the adapter, valid until the
     * next call on the instance. Never NULL. */
    const char* (*last_error)(kcs_adapter* adapter);
} kcs_adapter_api;

/* ---- the exported symbols --------------------------------------------- */

/* KCS-ABI-2 (from 1.1): the version handshake, as the Vulkan loader's
 * vk_icdNegotiateLoaderICDInterfaceVersion. On entry *version is the
 * newest version the harness speaks. The adapter writes the highest
 * version it implements that is not above it and returns KCS_OK; when it
 * implements none (its oldest is newer), it writes its oldest and returns
 * KCS_UNSUPPORTED, and the harness refuses it naming both versions. An
 * adapter that does not export this symbol implements 1.0 only. */
typedef kcs_status (*kcs_adapter_negotiate_fn)(uint32_t* version);

KCS_ADAPTER_EXPORT kcs_status kcs_adapter_negotiate(uint32_t* version);

/* KCS-ABI-3: returns the adapter's table for requested_abi_version (the
 * negotiated version; 1 for an adapter without kcs_adapter_negotiate), or
 * NULL when it does not implement that version. The table is a constant
 * with static storage; calling the entry again returns the same pointer. */
typedef const kcs_adapter_api* (*kcs_adapter_entry_fn)(uint32_t requested_abi_version);

KCS_ADAPTER_EXPORT const kcs_adapter_api* kcs_adapter_entry(uint32_t requested_abi_version);

/* The handshake of an adapter that implements one version, `implemented`:
 * versions are ordered as their values are, 1.0 included. */
static inline kcs_status kcs_negotiate_one(uint32_t* version, uint32_t implemented) {
    const int speaks = *version >= implemented;
    *version = implemented;
    return speaks ? KCS_OK : KCS_UNSUPPORTED;
}

/* Both exported functions of an adapter whose one table `api` (a constant
 * with static storage) implements api.abi_version: write
 * KCS_ADAPTER_DEFINE_EXPORTS(my_table) once, at file scope. */
#define KCS_ADAPTER_DEFINE_EXPORTS(api)                                                   \
    KCS_ADAPTER_EXPORT kcs_status kcs_adapter_negotiate(uint32_t* version) {              \
        return kcs_negotiate_one(version, (api).abi_version);                             \
    }                                                                                     \
    KCS_ADAPTER_EXPORT const kcs_adapter_api* kcs_adapter_entry(uint32_t requested) {     \
        return requested == (api).abi_version ? &(api) : NULL;                            \
    }

#ifdef __cplusplus
}
#endif

#endif /* KCS_ADAPTER_H */
