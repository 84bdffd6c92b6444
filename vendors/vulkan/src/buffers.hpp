// The adapter's device memory. Every buffer is device-local; where the device
// also has host-visible, coherent device-local memory (integrated GPUs, CPU
// devices such as lavapipe) it is mapped and write/read are plain copies,
// otherwise they go through a host-visible staging buffer and a transfer on
// the queue (memory=staged forces that path everywhere).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <unordered_map>

#include <kcs/adapter.h>

#include "device.hpp"

namespace kcs::vulkan {

// One VkBuffer and its memory; destroyed with it. `mapped` is its host
// address when the memory is host-visible, else null.
class Allocation {
public:
    Allocation() = default;
    Allocation(VkDevice device, VkBuffer buffer, VkDeviceMemory memory, void* mapped, std::uint64_t bytes)
        : device_(device), buffer_(buffer), memory_(memory), mapped_(mapped), bytes_(bytes) {}
    Allocation(Allocation&& other) noexcept { *this = std::move(other); }
    Allocation& operator=(Allocation&& other) noexcept;
    ~Allocation() { reset(); }

    VkBuffer buffer() const { return buffer_; }
    void* mapped() const { return mapped_; }
    std::uint64_t bytes() const { return bytes_; }
    void set_mapped(void* address) { mapped_ = address; }  // after vkMapMemory of the whole memory

private:
    void reset() noexcept;
    VkDevice device_ = VK_NULL_HANDLE;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
    std::uint64_t bytes_ = 0;
};

class DeviceBuffers {
public:
    DeviceBuffers(const Device& device, bool always_staged);
    ~DeviceBuffers();

    kcs_buffer allocate(std::uint64_t bytes);
    void release(kcs_buffer handle);
    void write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes);

    // The allocation holding [offset, offset + bytes) of a buffer, after
    // checking that the range lies within it.
    const Allocation& find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, const char* what) const;

    // Device memory for the adapter's own use (scratch rows, flags).
    Allocation create(std::uint64_t bytes);
    // Copies between host memory and an allocation, staged where it is not mapped.
    void upload(const Allocation& target, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void download(const Allocation& source, std::uint64_t offset, void* dst, std::uint64_t bytes);

    bool mapped() const { return mapped_type_ >= 0; }  // buffers are host-visible: no staging

private:
    Allocation create(std::uint64_t bytes, int type, VkBufferUsageFlags usage);
    void transfer(VkBuffer from, std::uint64_t from_offset, VkBuffer to, std::uint64_t to_offset, std::uint64_t bytes);

    const Device& device_;
    int mapped_type_ = -1;  // device-local + host-visible + coherent, when used
    int local_type_ = -1;   // device-local
    int staging_type_ = -1;
    Allocation staging_;
    VkCommandBuffer commands_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    std::unordered_map<kcs_buffer, Allocation> buffers_;
    kcs_buffer next_handle_ = 1;  // 0 is never a valid handle
};

}  // namespace kcs::vulkan
