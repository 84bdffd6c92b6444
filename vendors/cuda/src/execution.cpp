#include "execution.hpp"

#include <algorithm>

#include "adapter_failure.hpp"

namespace kcs::cuda {

namespace {

unsigned floor_power_of_two(std::size_t n) {
    unsigned p = 1;
    while (p * 2u <= n) p *= 2;
    return p;
}

// The most threads a block of this kernel may have (its registers and
// shared memory allow), at least 1.
std::size_t kernel_limit(cudaKernel_t kernel) {
    cudaFuncAttributes attributes{};
    check_cuda(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)), "cudaFuncGetAttributes");
    return static_cast<std::size_t>(std::max(attributes.maxThreadsPerBlock, 1));
}

constexpr std::size_t kPointwiseLocalSize = 256;
constexpr unsigned kMaxGridX = 2147483647u, kMaxGridYZ = 65535u;

}  // namespace

Execution::Execution(ModuleLibrary& modules, DeviceBuffers& buffers, std::size_t reduction_local_size)
    : modules_(modules), buffers_(buffers), reduction_local_size_(reduction_local_size) {}

Execution::~Execution() {
    if (scratch_) cudaFree(scratch_);
    if (flag_) cudaFree(flag_);
}

unsigned Execution::reduction_local_size(cudaKernel_t kernel) const {
    return floor_power_of_two(std::min(reduction_local_size_, kernel_limit(kernel)));
}

unsigned Execution::pointwise_local_size(cudaKernel_t kernel) const {
    return floor_power_of_two(std::min(kPointwiseLocalSize, kernel_limit(kernel)));
}

void Execution::launch_with(cudaKernel_t kernel, dim3 grid, dim3 block, std::size_t shared_bytes, void** arguments) {
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return;  // nothing to compute
    if (grid.x > kMaxGridX || grid.y > kMaxGridYZ || grid.z > kMaxGridYZ)
        device::fail(KCS_UNSUPPORTED, "a grid of " + std::to_string(grid.x) + " x " + std::to_string(grid.y) + " x " +
                                          std::to_string(grid.z) + " blocks exceeds CUDA's limits");
    check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, arguments, shared_bytes, nullptr),
               "cudaLaunchKernel");
}

unsigned blocks_for(std::uint64_t count, std::uint64_t step) {
    const std::uint64_t blocks = (count + step - 1) / step;
    if (blocks > kMaxGridX)
        device::fail(KCS_UNSUPPORTED, std::to_string(blocks) + " blocks exceed CUDA's grid limit of " +
                                          std::to_string(kMaxGridX));
    return static_cast<unsigned>(blocks);
}

float* Execution::scratch(std::uint64_t bytes) {
    if (bytes == 0) bytes = sizeof(float);
    if (bytes > scratch_bytes_) {
        if (scratch_) cudaFree(scratch_);
        scratch_ = nullptr;
        scratch_bytes_ = 0;
        check_cuda(cudaMalloc(&scratch_, bytes), "cudaMalloc (attention scratch)");
        scratch_bytes_ = bytes;
    }
    return static_cast<float*>(scratch_);
}

int* Execution::flag() {
    if (!flag_) check_cuda(cudaMalloc(&flag_, sizeof(int)), "cudaMalloc (gather flag)");
    return static_cast<int*>(flag_);
}

}  // namespace kcs::cuda
