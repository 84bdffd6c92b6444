// The Vulkan device an adapter instance runs on: the instance, the chosen
// physical device and its description (limits, 16-bit support, float
// controls), the logical device with one compute queue, and a command pool.
// Owns them all; destroyed last.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>

#include "options.hpp"

namespace kcs::vulkan {

// The float-controls properties (VkPhysicalDeviceFloatControlsProperties)
// that decide what a shader may do with subnormals, signed zeros, infinities,
// NaNs and rounding; known only on a Vulkan 1.2 device.
struct FloatControls {
    bool known = false;
    bool denorm_preserve_16 = false, denorm_preserve_32 = false;
    bool denorm_flush_16 = false, denorm_flush_32 = false;
    bool signed_zero_inf_nan_preserve_16 = false, signed_zero_inf_nan_preserve_32 = false;
    bool rte_16 = false, rte_32 = false, rtz_16 = false, rtz_32 = false;
};

struct DeviceDescription {
    std::string name, vendor, driver_name, driver_info, driver_version, api_version, type;
    FloatControls float_controls;
    bool storage_16bit = false;  // storageBuffer16BitAccess: f16 and bf16 tensors
    bool float16 = false;        // shaderFloat16: f16 arithmetic
    VkPhysicalDeviceLimits limits{};
};

class Device {
public:
    explicit Device(const Options& options);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkDevice handle() const { return device_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkQueue queue() const { return queue_; }
    VkCommandPool command_pool() const { return pool_; }
    const DeviceDescription& description() const { return description_; }

    // A memory type of `type_bits` with all of `wanted`; -1 when none.
    int memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags wanted) const;

private:
    void release() noexcept;

    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    DeviceDescription description_;
    VkPhysicalDeviceMemoryProperties memory_{};
};

}  // namespace kcs::vulkan
