/*
 * kcs/adapter.h: the KCS adapter ABI, version 1.
 *
 * A backend adapter is a shared library that exports one C function,
 * kcs_adapter_entry, returning a constant table of functions. The harness
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
 * where it may grow, so later minor versions can append fields.
 *
 * Threading: the harness calls one adapter instance from one thread at a
 * time, except where a function says otherwise. Different instances
 * (separate open calls) may be used from different threads concurrently.
 *
 * Lifetime:  entry -> open -> { info | supports | alloc | write | read |
 *            run | release | last_error }* -> close.
 * Nothing but last_error may be called after a function returned
 * KCS_DEVICE_LOST; then only close.
 */
#ifndef KCS_ADAPTER_H
#define KCS_ADAPTER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KCS_ADAPTER_ABI_VERSION 1u
#define KCS_ADAPTER_ENTRY_SYMBOL "kcs_adapter_entry"

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

/* A tensor lives in a buffer at a byte offset. Elements are little-endian
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
 * "attributes"): exactly one of the value fields is meaningful. */
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
 * Everything the op points to is owned by the harness and valid only for
 * the duration of the call. */
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
} kcs_op;

/* ---- information -------------------------------------------------------- */

/* Filled by info(). Every string is owned by the adapter, NUL-terminated
 * UTF-8, and valid until close. None may be NULL; use "" for unknown. */
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

typedef struct kcs_adapter_api {
    uint32_t abi_version; /* KCS_ADAPTER_ABI_VERSION the adapter implements */
    uint32_t struct_size; /* sizeof(kcs_adapter_api) of the adapter */
    const char* name;     /* short adapter name, e.g. "reference-cpu" */

    /* Opens a device. options are option_count strings "key=value" (e.g.
     * "device=1", "threads=4"); an unknown key or bad value fails with
     * KCS_INVALID_ARGUMENT and a message in last_error(NULL). The strings
     * are valid for the duration of the call only. */
    kcs_status (*open)(const char* const* options, uint32_t option_count, kcs_adapter** out);

    /* Releases every buffer and the device. adapter may be NULL. */
    void (*close)(kcs_adapter* adapter);

    kcs_status (*info)(kcs_adapter* adapter, kcs_info* out);

    /* KCS_OK if run(op) would compute it, KCS_UNSUPPORTED if not, and
     * KCS_INVALID_ARGUMENT for a malformed op (NULL name, unknown dtype, rank
     * above KCS_MAX_RANK). Decides from the name, function, dtypes, ranks and
     * attributes; the tensors' buffers may be 0 and must not be touched. */
    kcs_status (*supports)(kcs_adapter* adapter, const kcs_op* op);

    /* A new buffer of `bytes` bytes (0 allowed: a valid handle of an empty
     * buffer). Contents are unspecified. Any byte offset may later be
     * written or read; the adapter handles alignment itself. */
    kcs_status (*alloc)(kcs_adapter* adapter, uint64_t bytes, kcs_buffer* out);

    /* Frees a buffer. An unknown handle returns KCS_INVALID_ARGUMENT. */
    kcs_status (*release)(kcs_adapter* adapter, kcs_buffer buffer);

    /* Copies bytes between host memory and a buffer. offset + bytes must
     * lie within the buffer (else KCS_INVALID_ARGUMENT, nothing copied).
     * Synchronous: when write returns, src may be reused; when read
     * returns, dst holds the data. bytes may be 0. */
    kcs_status (*write)(kcs_adapter* adapter, kcs_buffer buffer, uint64_t offset, const void* src,
                        uint64_t bytes);
    kcs_status (*read)(kcs_adapter* adapter, kcs_buffer buffer, uint64_t offset, void* dst,
                       uint64_t bytes);

    /* Runs one operator. Synchronous: the outputs are complete when it
     * returns. It must write every element of every output and nothing
     * outside them, and read nothing but its inputs. A tensor whose offset
     * is not a multiple of its element size, or that does not lie within its
     * buffer, gives KCS_INVALID_ARGUMENT and nothing is computed. */
    kcs_status (*run)(kcs_adapter* adapter, const kcs_op* op);

    /* A human-readable message about the last failed call on this instance
     * (or, with NULL, about the last failed open on this thread); "" before
     * any failure. Owned by the adapter, valid until the next call on the
     * instance. Never NULL. */
    const char* (*last_error)(kcs_adapter* adapter);
} kcs_adapter_api;

/* The one exported symbol. Returns the adapter's table if it implements
 * requested_abi_version, or NULL. The table is a constant with static
 * storage; calling the entry again returns the same pointer. */
typedef const kcs_adapter_api* (*kcs_adapter_entry_fn)(uint32_t requested_abi_version);

KCS_ADAPTER_EXPORT const kcs_adapter_api* kcs_adapter_entry(uint32_t requested_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* KCS_ADAPTER_H */
