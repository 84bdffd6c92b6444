// The CUDA device an adapter computes on (vendors/cuda, vendors/cublas):
// which device device=N selects, what the runtime says of it, and its
// buffers in device memory. Host code over
// the CUDA runtime API alone (no nvcc needed); every failure is an
// AdapterFailure naming the CUDA call and its error.
#pragma once

#include <kcs/adapter.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "op_request.hpp"

namespace kcs::cuda {

// Throws AdapterFailure unless `error` is cudaSuccess: KCS_OUT_OF_MEMORY for
// cudaErrorMemoryAllocation, KCS_DEVICE_ERROR otherwise, naming `call` and
// the runtime's name and text of the error.
void check_cuda(cudaError_t error, const char* call);

// What info() reports of the device and the CUDA stack.
struct DeviceDescription {
    int index = 0;
    std::string name;                  // "NVIDIA H200"
    int major = 0, minor = 0;          // compute capability
    int driver_version = 0;            // cudaDriverGetVersion: 13000 for 13.0
    int runtime_version = 0;           // cudaRuntimeGetVersion
    std::uint64_t global_memory = 0;   // bytes
};
std::string version_text(int cuda_version);  // 13000 -> "13.0"

// The device `index` names (device=N; the first when absent), made current
// on the calling thread. Throws AdapterFailure (KCS_DEVICE_ERROR) saying
// "no CUDA device" where the runtime finds none or no driver, and
// KCS_INVALID_ARGUMENT for an index beyond the devices it lists.
DeviceDescription open_device(std::optional<int> index);

// The instance's buffers on device `device`: one cudaMalloc allocation per
// handle (none for 0 bytes). write and read are synchronous copies. Each
// call makes the device current first: the harness may call from another
// thread than open's, and the current device is per thread.
class DeviceBuffers {
public:
    explicit DeviceBuffers(int device) : device_(device) {}
    DeviceBuffers(const DeviceBuffers&) = delete;
    DeviceBuffers& operator=(const DeviceBuffers&) = delete;
    ~DeviceBuffers();

    kcs_buffer allocate(std::uint64_t bytes);
    void release(kcs_buffer handle);
    void write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes);

    // The device address of a tensor's first element: its offset must be a
    // multiple of its element size and its elements must lie within its
    // buffer; `what` ("matmul: A") names it in the KCS_INVALID_ARGUMENT otherwise.
    void* bind(const device::TensorRef& tensor, const char* what) const;

private:
    struct Entry {
        void* memory = nullptr;
        std::uint64_t bytes = 0;
    };
    const Entry& find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, const char* what) const;

    void make_current() const;

    int device_;
    std::unordered_map<kcs_buffer, Entry> buffers_;
    kcs_buffer next_handle_ = 1;  // 0 is never a valid handle
};

}  // namespace kcs::cuda
