// The adapter's buffers: one cl_mem per handle, in the device's memory. A
// buffer of 0 bytes has a handle and no cl_mem (OpenCL has no empty buffers).
// write and read are blocking transfers.
#pragma once

#include <kcs/adapter.h>

#include <cstdint>
#include <unordered_map>

#include "cl_handle.hpp"
#include "op_request.hpp"

namespace kcs::opencl {

// A tensor's memory as a kernel sees it: the cl_mem and the element offset
// of the tensor's first element (kernels, and CLBlast, index from there).
struct BoundTensor {
    cl_mem memory = nullptr;
    cl_ulong at = 0;
};

class DeviceBuffers {
public:
    DeviceBuffers(cl_context context, cl_command_queue queue, std::uint64_t max_alloc_bytes)
        : context_(context), queue_(queue), max_alloc_bytes_(max_alloc_bytes) {}

    kcs_buffer allocate(std::uint64_t bytes);
    void release(kcs_buffer handle);
    void write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes);

    // The cl_mem holding [offset, offset + bytes) of a buffer, after
    // checking that the range lies within it; nullptr for an empty buffer.
    cl_mem memory(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes) const;

    // The tensor in device memory: its offset must be a multiple of its
    // element size and its elements must lie within its buffer; `what`
    // ("matmul: A") names it in the KCS_INVALID_ARGUMENT otherwise.
    BoundTensor bind(const device::TensorRef& tensor, const char* what) const;

private:
    struct Entry {
        Memory memory;
        std::uint64_t bytes = 0;
    };
    const Entry& find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, const char* what) const;

    cl_context context_;
    cl_command_queue queue_;
    std::uint64_t max_alloc_bytes_;
    std::unordered_map<kcs_buffer, Entry> buffers_;
    kcs_buffer next_handle_ = 1;  // 0 is never a valid handle
};

}  // namespace kcs::opencl
