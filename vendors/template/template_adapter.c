/*
 * The smallest complete KCS adapter: copy this folder to start yours.
 *
 * It runs one operator, `elementwise` with function `add`, on f32 tensors,
 * with "device" buffers in host memory. A real adapter keeps this shape
 * and replaces malloc/memcpy with its device's allocation and copies, and
 * run() with a kernel launch that completes before it returns.
 *
 * Build it against an installed KCS:   cmake -S . -B build && cmake --build build
 * Check it:                            kcs adapter check build/libkcs-adapter-template.so
 * Certify it:                          kcs certify --adapter build/libkcs-adapter-template.so --claims claims.yaml
 * Every rule it follows is stated in kcs/adapter.h.
 *
 * Its name, version and vendor come from CMakeLists.txt (ADAPTER_NAME ...):
 * one place names the library file, the ABI table and what info() says.
 */
#include <kcs/adapter.h>

#if !defined(ADAPTER_NAME) || !defined(ADAPTER_VERSION) || !defined(ADAPTER_VENDOR)
#error "ADAPTER_NAME, ADAPTER_VERSION and ADAPTER_VENDOR come from CMakeLists.txt"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BUFFERS 4096

/* One open device. Buffers are slots in a table; a handle is slot + 1, so
 * 0 is never a valid handle, as the ABI requires. */
struct kcs_adapter {
    unsigned char* data[MAX_BUFFERS];
    uint64_t size[MAX_BUFFERS];
    int used[MAX_BUFFERS];
    char error[256];
};

/* open() has no instance yet to hold its error: keep it per thread. */
static _Thread_local char open_error[256] = "";

static kcs_status fail(kcs_adapter* a, kcs_status status, const char* message) {
    snprintf(a->error, sizeof a->error, "%s", message);
    return status;
}

/* The buffer behind a handle, or NULL for a handle this instance never gave. */
static int slot_of(const kcs_adapter* a, kcs_buffer handle) {
    if (handle == 0 || handle > MAX_BUFFERS || !a->used[handle - 1]) return -1;
    return (int)(handle - 1);
}

static kcs_status template_open(const char* const* options, uint32_t option_count, kcs_adapter** out) {
    /* This adapter takes no options: refuse any, naming it. */
    if (option_count > 0) {
        snprintf(open_error, sizeof open_error, "unknown option '%s' (the %s adapter takes none)", options[0],
                 ADAPTER_NAME);
        return KCS_INVALID_ARGUMENT;
    }
    kcs_adapter* a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(open_error, sizeof open_error, "out of memory");
        return KCS_OUT_OF_MEMORY;
    }
    *out = a;
    return KCS_OK;
}

static void template_close(kcs_adapter* a) {
    if (!a) return;
    for (int i = 0; i < MAX_BUFFERS; ++i) free(a->data[i]);
    free(a);
}

static kcs_status template_info(kcs_adapter* a, kcs_info* out) {
    (void)a;
    out->adapter_name = ADAPTER_NAME;
    out->adapter_version = ADAPTER_VERSION;
    out->vendor = ADAPTER_VENDOR;
    out->device = "host memory";
    out->driver_version = "";
    out->notes = "example adapter: elementwise add on f32 only";
    return KCS_OK;
}

/* The one operator this adapter computes: elementwise add, f32, same shape. */
static int is_f32_add(const kcs_op* op) {
    if (strcmp(op->name, "elementwise") != 0 || !op->function || strcmp(op->function, "add") != 0) return 0;
    if (op->input_count < 2 || op->output_count != 1) return 0;
    for (uint32_t i = 0; i < 2; ++i)
        if (kcs_op_input(op, i)->dtype != KCS_DTYPE_F32) return 0;
    return kcs_op_output(op, 0)->dtype == KCS_DTYPE_F32;
}

static kcs_status template_supports(kcs_adapter* a, const kcs_op* op) {
    (void)a;
    return is_f32_add(op) ? KCS_OK : KCS_UNSUPPORTED;
}

static kcs_status template_alloc(kcs_adapter* a, uint64_t bytes, kcs_buffer* out) {
    for (int i = 0; i < MAX_BUFFERS; ++i) {
        if (a->used[i]) continue;
        a->data[i] = malloc(bytes ? bytes : 1); /* malloc(0) may return NULL */
        if (!a->data[i]) return fail(a, KCS_OUT_OF_MEMORY, "out of memory");
        a->size[i] = bytes;
        a->used[i] = 1;
        *out = (kcs_buffer)i + 1;
        return KCS_OK;
    }
    return fail(a, KCS_OUT_OF_MEMORY, "too many buffers");
}

static kcs_status template_release(kcs_adapter* a, kcs_buffer handle) {
    const int slot = slot_of(a, handle);
    if (slot < 0) return fail(a, KCS_INVALID_ARGUMENT, "release: unknown buffer handle");
    free(a->data[slot]);
    a->data[slot] = NULL;
    a->used[slot] = 0;
    return KCS_OK;
}

/* Checks that [offset, offset + bytes) lies in the buffer, without overflow. */
static unsigned char* span(kcs_adapter* a, kcs_buffer handle, uint64_t offset, uint64_t bytes) {
    const int slot = slot_of(a, handle);
    if (slot < 0 || offset > a->size[slot] || bytes > a->size[slot] - offset) return NULL;
    return a->data[slot] + offset;
}

static kcs_status template_write(kcs_adapter* a, kcs_buffer handle, uint64_t offset, const void* src, uint64_t bytes) {
    unsigned char* dst = span(a, handle, offset, bytes);
    if (!dst) return fail(a, KCS_INVALID_ARGUMENT, "write: unknown handle or range outside the buffer");
    memcpy(dst, src, bytes);
    return KCS_OK;
}

static kcs_status template_read(kcs_adapter* a, kcs_buffer handle, uint64_t offset, void* dst, uint64_t bytes) {
    const unsigned char* src = span(a, handle, offset, bytes);
    if (!src) return fail(a, KCS_INVALID_ARGUMENT, "read: unknown handle or range outside the buffer");
    memcpy(dst, src, bytes);
    return KCS_OK;
}

static uint64_t element_count(const kcs_tensor* t) {
    uint64_t n = 1;
    for (uint32_t d = 0; d < t->rank; ++d) n *= (uint64_t)t->shape[d];
    return n;
}

static kcs_status template_run(kcs_adapter* a, const kcs_op* op) {
    if (!is_f32_add(op)) return fail(a, KCS_UNSUPPORTED, "only elementwise add on f32 is supported");
    /* Through the accessors, never op->inputs[i]: the tensors' size rides
     * in the op (KCS-ABI-13). */
    const kcs_tensor* in0 = kcs_op_input(op, 0);
    const kcs_tensor* in1 = kcs_op_input(op, 1);
    const kcs_tensor* out = kcs_op_output(op, 0);
    const uint64_t n = element_count(out);
    if (element_count(in0) != n || element_count(in1) != n)
        return fail(a, KCS_INVALID_ARGUMENT, "add: inputs and output differ in size");
    const float* x = (const float*)span(a, in0->buffer, in0->offset, n * 4);
    const float* y = (const float*)span(a, in1->buffer, in1->offset, n * 4);
    float* z = (float*)span(a, out->buffer, out->offset, n * 4);
    if (!x || !y || !z) return fail(a, KCS_INVALID_ARGUMENT, "add: a tensor lies outside its buffer");
    /* Byte offsets need not be 4-aligned in this host-memory adapter; copy
     * element by element so unaligned tensors are read correctly. */
    for (uint64_t i = 0; i < n; ++i) {
        float xi, yi, zi;
        memcpy(&xi, x + i, 4);
        memcpy(&yi, y + i, 4);
        zi = xi + yi;
        memcpy(z + i, &zi, 4);
    }
    return KCS_OK;
}

static const char* template_last_error(kcs_adapter* a) { return a ? a->error : open_error; }

static const kcs_adapter_api table = {
    KCS_ADAPTER_ABI_VERSION, sizeof(kcs_adapter_api), ADAPTER_NAME,
    template_open, template_close, template_info, template_supports, template_alloc, template_release,
    template_write, template_read, template_run, template_last_error,
};

/* The version handshake (KCS-ABI-2): this adapter implements the one
 * version of the header it was built with; a harness that offers it or a
 * later one gets it. */
KCS_ADAPTER_EXPORT kcs_status kcs_adapter_negotiate(uint32_t* version) {
    const int speaks = *version >= KCS_ADAPTER_ABI_VERSION;
    *version = KCS_ADAPTER_ABI_VERSION;
    return speaks ? KCS_OK : KCS_UNSUPPORTED;
}

KCS_ADAPTER_EXPORT const kcs_adapter_api* kcs_adapter_entry(uint32_t requested_abi_version) {
    return requested_abi_version == KCS_ADAPTER_ABI_VERSION ? &table : NULL;
}
