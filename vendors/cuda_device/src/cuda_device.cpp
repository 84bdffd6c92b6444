#include "cuda_device.hpp"

#include <string>

#include "adapter_failure.hpp"
#include "op_checks.hpp"

namespace kcs::cuda {

void check_cuda(cudaError_t error, const char* call) {
    if (error == cudaSuccess) return;
    const std::string message =
        std::string(call) + " returns " + cudaGetErrorName(error) + " (" + cudaGetErrorString(error) + ")";
    device::fail(error == cudaErrorMemoryAllocation ? KCS_OUT_OF_MEMORY : KCS_DEVICE_ERROR, message);
}

std::string version_text(int cuda_version) {
    return std::to_string(cuda_version / 1000) + "." + std::to_string(cuda_version % 1000 / 10);
}

DeviceDescription open_device(std::optional<int> index) {
    int count = 0;
    const cudaError_t listed = cudaGetDeviceCount(&count);
    if (listed != cudaSuccess || count == 0) {
        cudaGetLastError();  // the runtime keeps the error sticky otherwise
        device::fail(KCS_DEVICE_ERROR, std::string("no CUDA device: cudaGetDeviceCount returns ") +
                                           (listed == cudaSuccess ? "0 devices" : cudaGetErrorName(listed)));
    }
    DeviceDescription d;
    d.index = index.value_or(0);
    if (d.index >= count)
        device::invalid("device=" + std::to_string(d.index) + ": the CUDA runtime lists " + std::to_string(count) +
                        " device(s), 0 to " + std::to_string(count - 1));
    check_cuda(cudaSetDevice(d.index), "cudaSetDevice");
    cudaDeviceProp props{};
    check_cuda(cudaGetDeviceProperties(&props, d.index), "cudaGetDeviceProperties");
    d.name = props.name;
    d.major = props.major;
    d.minor = props.minor;
    d.global_memory = props.totalGlobalMem;
    check_cuda(cudaDriverGetVersion(&d.driver_version), "cudaDriverGetVersion");
    check_cuda(cudaRuntimeGetVersion(&d.runtime_version), "cudaRuntimeGetVersion");
    return d;
}

void DeviceBuffers::make_current() const { check_cuda(cudaSetDevice(device_), "cudaSetDevice"); }

DeviceBuffers::~DeviceBuffers() {
    cudaSetDevice(device_);
    for (auto& [handle, entry] : buffers_)
        if (entry.memory) cudaFree(entry.memory);
}

kcs_buffer DeviceBuffers::allocate(std::uint64_t bytes) {
    Entry entry;
    entry.bytes = bytes;
    make_current();
    if (bytes) check_cuda(cudaMalloc(&entry.memory, bytes), "cudaMalloc");
    buffers_.emplace(next_handle_, entry);
    return next_handle_++;
}

void DeviceBuffers::release(kcs_buffer handle) {
    const auto found = buffers_.find(handle);
    if (found == buffers_.end()) device::invalid("release: unknown buffer " + std::to_string(handle));
    make_current();
    if (found->second.memory) check_cuda(cudaFree(found->second.memory), "cudaFree");
    buffers_.erase(found);
}

const DeviceBuffers::Entry& DeviceBuffers::find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                                                const char* what) const {
    const auto found = buffers_.find(handle);
    if (found == buffers_.end()) device::invalid(std::string(what) + ": unknown buffer " + std::to_string(handle));
    device::check_buffer_range(what, handle, offset, bytes, found->second.bytes);
    return found->second;
}

void DeviceBuffers::write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    const Entry& entry = find(handle, offset, bytes, "write");
    make_current();
    if (bytes)
        check_cuda(cudaMemcpy(static_cast<char*>(entry.memory) + offset, src, bytes, cudaMemcpyHostToDevice),
                   "cudaMemcpy (host to device)");
}

void DeviceBuffers::read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    const Entry& entry = find(handle, offset, bytes, "read");
    make_current();
    if (bytes)
        check_cuda(cudaMemcpy(dst, static_cast<const char*>(entry.memory) + offset, bytes, cudaMemcpyDeviceToHost),
                   "cudaMemcpy (device to host)");
}

void* DeviceBuffers::bind(const device::TensorRef& tensor, const char* what) const {
    const std::uint64_t element = device::size_of(tensor.dtype);
    if (tensor.offset % element != 0)
        device::invalid(std::string(what) + ": offset " + std::to_string(tensor.offset) + " is not a multiple of " +
                        std::to_string(element) + " bytes");
    const Entry& entry = find(tensor.buffer, tensor.offset, tensor.elements() * element, what);
    return entry.memory ? static_cast<char*>(entry.memory) + tensor.offset : nullptr;
}

}  // namespace kcs::cuda
