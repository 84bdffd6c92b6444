// What an operator needs to run on the device: its tensors bound as
// storage-buffer ranges, its pipelines, push constants, the dispatches in
// one command buffer (each followed by a barrier, so the next sees its
// writes), and the submit that waits for them. Nothing is submitted before
// finish(); run() in adapter_api.cpp calls it before it returns.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "buffers.hpp"
#include "device.hpp"
#include "op_request.hpp"
#include "pipelines.hpp"

namespace kcs::vulkan {

using namespace kcs::device;  // Request, TensorRef, Dtype

// A tensor as a shader sees it: a range of a buffer that starts at an
// offset the device can bind, and the element index `at` of the tensor's
// first element within it.
struct Bound {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0, range = 0;
    std::uint32_t at = 0;
};

// Push constants: 32-bit words in the order the module's Params block lists them.
using Push = std::vector<std::uint32_t>;
inline std::uint32_t word(float value) { return std::bit_cast<std::uint32_t>(value); }
inline std::uint32_t word(std::uint64_t value) { return static_cast<std::uint32_t>(value); }

class Execution {
public:
    Execution(const Device& device, DeviceBuffers& buffers, PipelineLibrary& pipelines, std::size_t reduction_local_size);
    ~Execution();

    const DeviceDescription& device() const { return device_.description(); }

    // The tensor's range: its offset a multiple of its element size, its
    // elements inside its buffer (KCS_INVALID_ARGUMENT), the range within the
    // device's maxStorageBufferRange and its index within 32 bits
    // (KCS_UNSUPPORTED).
    Bound bind(const TensorRef& tensor, const char* what) const;
    Bound bind(const Allocation& allocation) const;

    // One dispatch of `groups` work-groups of module `shader`.
    void dispatch(const std::string& shader, const std::vector<Bound>& tensors, const Push& push,
                  std::uint32_t local_size, const std::array<std::uint32_t, 3>& groups);
    // `count` work-groups in a row, laid out over x and y (x at most the
    // device's limit); the shaders number them x + width * y.
    void dispatch_linear(const std::string& shader, const std::vector<Bound>& tensors, const Push& push,
                         std::uint32_t local_size, std::uint64_t count);
    // Sets every 32-bit word of an allocation to `value` before the next dispatch.
    void fill(const Allocation& allocation, std::uint32_t value);
    // Submits what was recorded and waits for it; the descriptor sets are then free.
    void finish();
    // Drops what was recorded, after a failure, waiting for nothing.
    void abandon() noexcept;

    std::uint32_t reduction_local_size() const { return reduction_local_size_; }
    std::uint32_t pointwise_local_size() const { return pointwise_local_size_; }

    // Device memory of at least `bytes` that lives until the next call; for
    // the attention scores.
    const Allocation& scratch(std::uint64_t bytes);
    // A 4-byte device word for the gather's out-of-range report.
    const Allocation& flag();
    std::int32_t read_flag();

private:
    VkCommandBuffer recording();
    void barrier(VkPipelineStageFlags from, VkAccessFlags written);

    const Device& device_;
    DeviceBuffers& buffers_;
    PipelineLibrary& pipelines_;
    std::uint32_t reduction_local_size_;
    std::uint32_t pointwise_local_size_;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    bool recording_ = false;
    Allocation scratch_;
    Allocation flag_;
};

inline std::uint64_t ceil_div(std::uint64_t value, std::uint64_t step) { return (value + step - 1) / step; }

}  // namespace kcs::vulkan
