#include "device_buffers.hpp"

#include <string>

#include "op_checks.hpp"

namespace kcs::opencl {

kcs_buffer DeviceBuffers::allocate(std::uint64_t bytes) {
    if (bytes > max_alloc_bytes_)
        fail(KCS_OUT_OF_MEMORY, "alloc: " + std::to_string(bytes) + " bytes exceed the device's largest buffer (" +
                                    std::to_string(max_alloc_bytes_) + " bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
    Entry entry;
    entry.bytes = bytes;
    if (bytes > 0) {
        cl_int error = CL_SUCCESS;
        entry.memory = Memory(clCreateBuffer(context_, CL_MEM_READ_WRITE, static_cast<std::size_t>(bytes), nullptr, &error));
        check_cl(error, "alloc: clCreateBuffer");
    }
    buffers_.emplace(next_handle_, std::move(entry));
    return next_handle_++;
}

void DeviceBuffers::release(kcs_buffer handle) {
    if (buffers_.erase(handle) == 0) invalid("release: unknown buffer " + std::to_string(handle));
}

const DeviceBuffers::Entry& DeviceBuffers::find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                                                const char* what) const {
    const auto it = buffers_.find(handle);
    if (it == buffers_.end()) invalid(std::string(what) + ": unknown buffer " + std::to_string(handle));
    check_buffer_range(what, handle, offset, bytes, it->second.bytes);
    return it->second;
}

void DeviceBuffers::write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (!src && bytes > 0) invalid("write: src is NULL");
    const Entry& entry = find(handle, offset, bytes, "write");
    if (bytes == 0) return;
    check_cl(clEnqueueWriteBuffer(queue_, entry.memory.get(), CL_TRUE, static_cast<std::size_t>(offset),
                                  static_cast<std::size_t>(bytes), src, 0, nullptr, nullptr),
             "write: clEnqueueWriteBuffer");
}

void DeviceBuffers::read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (!dst && bytes > 0) invalid("read: dst is NULL");
    const Entry& entry = find(handle, offset, bytes, "read");
    if (bytes == 0) return;
    check_cl(clEnqueueReadBuffer(queue_, entry.memory.get(), CL_TRUE, static_cast<std::size_t>(offset),
                                 static_cast<std::size_t>(bytes), dst, 0, nullptr, nullptr),
             "read: clEnqueueReadBuffer");
}

cl_mem DeviceBuffers::memory(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes) const {
    return find(handle, offset, bytes, "tensor").memory.get();
}

BoundTensor DeviceBuffers::bind(const device::TensorRef& tensor, const char* what) const {
    const std::uint64_t element = device::size_of(tensor.dtype);
    if (tensor.offset % element != 0)
        invalid(std::string(what) + ": offset " + std::to_string(tensor.offset) +
                " is not a multiple of the element size " + std::to_string(element));
    try {
        return {memory(tensor.buffer, tensor.offset, tensor.elements() * element), tensor.offset / element};
    } catch (const AdapterFailure& failure) {
        invalid(std::string(what) + ": " + failure.what());
    }
}

}  // namespace kcs::opencl
