// What an operator needs to run on the device: its kernels, its tensors'
// device addresses, the block sizes, scratch memory, and the launch
// itself. Every launch goes to the default stream; run() in
// adapter_api.cpp synchronizes before it returns.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda_device.hpp"
#include "modules.hpp"
#include "op_request.hpp"

namespace kcs::cuda {

class Execution {
public:
    Execution(ModuleLibrary& modules, DeviceBuffers& buffers, std::size_t reduction_local_size);
    Execution(const Execution&) = delete;
    Execution& operator=(const Execution&) = delete;
    ~Execution();

    cudaKernel_t kernel(Family family, const std::string& expression) { return modules_.kernel(family, expression); }

    // The tensor's device address (DeviceBuffers::bind).
    const void* bind(const device::TensorRef& tensor, const char* what) const { return buffers_.bind(tensor, what); }

    // The block size of a row reduction: the configured size (a power of
    // two) capped by the kernel's limit. One size per kernel, whatever the
    // shape: the order of a row's sum depends on its length and the
    // options only, never on the number of rows.
    unsigned reduction_local_size(cudaKernel_t kernel) const;
    // The block size of the one-thread-per-element kernels.
    unsigned pointwise_local_size(cudaKernel_t kernel) const;

    // Launches `kernel` with these arguments, each passed by value as the
    // kernel's parameter of the same type and size; an empty grid
    // launches nothing. A grid beyond CUDA's limits is KCS_UNSUPPORTED.
    template <typename... Args>
    void launch(cudaKernel_t kernel, dim3 grid, dim3 block, std::size_t shared_bytes, const Args&... args) {
        void* pointers[] = {const_cast<void*>(static_cast<const void*>(&args))...};
        launch_with(kernel, grid, block, shared_bytes, pointers);
    }

    // Device memory of at least `bytes` bytes that lives until the next
    // call of scratch(); for the attention scores.
    float* scratch(std::uint64_t bytes);
    // A device int for the gather's out-of-range report.
    int* flag();

private:
    void launch_with(cudaKernel_t kernel, dim3 grid, dim3 block, std::size_t shared_bytes, void** arguments);

    ModuleLibrary& modules_;
    DeviceBuffers& buffers_;
    std::size_t reduction_local_size_;
    void* scratch_ = nullptr;
    std::uint64_t scratch_bytes_ = 0;
    void* flag_ = nullptr;
};

// ceil(count / step) as a grid extent; KCS_UNSUPPORTED beyond CUDA's
// largest (2^31 - 1 blocks; launch() checks y and z against 65535).
unsigned blocks_for(std::uint64_t count, std::uint64_t step);

}  // namespace kcs::cuda
