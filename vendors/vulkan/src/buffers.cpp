#include "buffers.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "op_checks.hpp"
#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

constexpr std::uint64_t kStagingBytes = std::uint64_t{16} << 20;  // transfers move at most this much at a time
constexpr VkBufferUsageFlags kTensorUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
constexpr VkMemoryPropertyFlags kHostVisible = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;

// A probe buffer's memory type bits: what a storage buffer may live in.
std::uint32_t storage_type_bits(VkDevice device) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = 16;
    info.usage = kTensorUsage;
    VkBuffer buffer = VK_NULL_HANDLE;
    check_vk(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    vkDestroyBuffer(device, buffer, nullptr);
    return requirements.memoryTypeBits;
}

}  // namespace

Allocation& Allocation::operator=(Allocation&& other) noexcept {
    if (this != &other) {
        reset();
        device_ = std::exchange(other.device_, VK_NULL_HANDLE);
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        mapped_ = std::exchange(other.mapped_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void Allocation::reset() noexcept {
    if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr);  // unmaps too
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
}

DeviceBuffers::DeviceBuffers(const Device& device, bool always_staged) : device_(device) {
    const std::uint32_t bits = storage_type_bits(device.handle());
    if (!always_staged) mapped_type_ = device.memory_type(bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | kHostVisible);
    local_type_ = device.memory_type(bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (local_type_ < 0) local_type_ = device.memory_type(bits, 0);
    staging_type_ = device.memory_type(bits, kHostVisible);
    if (mapped_type_ >= 0) return;
    if (staging_type_ < 0) fail(KCS_DEVICE_ERROR, "the device has no host-visible, coherent memory for staging");
    staging_ = create(kStagingBytes, staging_type_, kTensorUsage);
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = device.command_pool();
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    check_vk(vkAllocateCommandBuffers(device.handle(), &allocate, &commands_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check_vk(vkCreateFence(device.handle(), &fence, nullptr, &fence_), "vkCreateFence");
}

DeviceBuffers::~DeviceBuffers() {
    buffers_.clear();
    if (fence_) vkDestroyFence(device_.handle(), fence_, nullptr);
    if (commands_) vkFreeCommandBuffers(device_.handle(), device_.command_pool(), 1, &commands_);
}

Allocation DeviceBuffers::create(std::uint64_t bytes, int type, VkBufferUsageFlags usage) {
    const VkDevice device = device_.handle();
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = std::max<std::uint64_t>((bytes + 3) / 4 * 4, 16);  // never empty; whole 32-bit words
    info.usage = usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    check_vk(vkCreateBuffer(device, &info, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(device, buffer, &requirements);
    VkMemoryAllocateInfo allocate{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = static_cast<std::uint32_t>(type);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    const VkResult allocated = vkAllocateMemory(device, &allocate, nullptr, &memory);
    if (allocated != VK_SUCCESS) vkDestroyBuffer(device, buffer, nullptr);
    check_vk(allocated, "vkAllocateMemory");
    Allocation result(device, buffer, memory, nullptr, bytes);
    check_vk(vkBindBufferMemory(device, buffer, memory, 0), "vkBindBufferMemory");
    if (type == mapped_type_ || type == staging_type_) {
        void* mapped = nullptr;
        check_vk(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
        result.set_mapped(mapped);
    }
    return result;
}

Allocation DeviceBuffers::create(std::uint64_t bytes) {
    return create(bytes, mapped_type_ >= 0 ? mapped_type_ : local_type_, kTensorUsage);
}

kcs_buffer DeviceBuffers::allocate(std::uint64_t bytes) {
    buffers_.emplace(next_handle_, create(bytes));
    return next_handle_++;
}

void DeviceBuffers::release(kcs_buffer handle) {
    if (buffers_.erase(handle) == 0) invalid("release: unknown buffer " + std::to_string(handle));
}

const Allocation& DeviceBuffers::find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                                      const char* what) const {
    const auto it = buffers_.find(handle);
    if (it == buffers_.end()) invalid(std::string(what) + ": unknown buffer " + std::to_string(handle));
    check_buffer_range(what, handle, offset, bytes, it->second.bytes());
    return it->second;
}

void DeviceBuffers::write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (!src && bytes > 0) invalid("write: src is NULL");
    upload(find(handle, offset, bytes, "write"), offset, src, bytes);
}

void DeviceBuffers::read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (!dst && bytes > 0) invalid("read: dst is NULL");
    download(find(handle, offset, bytes, "read"), offset, dst, bytes);
}

void DeviceBuffers::upload(const Allocation& target, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (target.mapped()) {
        std::memcpy(static_cast<char*>(target.mapped()) + offset, src, bytes);
        return;
    }
    for (std::uint64_t done = 0; done < bytes; done += kStagingBytes) {
        const std::uint64_t n = std::min(kStagingBytes, bytes - done);
        std::memcpy(staging_.mapped(), static_cast<const char*>(src) + done, n);
        transfer(staging_.buffer(), 0, target.buffer(), offset + done, n);
    }
}

void DeviceBuffers::download(const Allocation& source, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (source.mapped()) {
        std::memcpy(dst, static_cast<const char*>(source.mapped()) + offset, bytes);
        return;
    }
    for (std::uint64_t done = 0; done < bytes; done += kStagingBytes) {
        const std::uint64_t n = std::min(kStagingBytes, bytes - done);
        transfer(source.buffer(), offset + done, staging_.buffer(), 0, n);
        std::memcpy(static_cast<char*>(dst) + done, staging_.mapped(), n);
    }
}

// One copy on the queue, waited for: the queue is idle between ABI calls.
void DeviceBuffers::transfer(VkBuffer from, std::uint64_t from_offset, VkBuffer to, std::uint64_t to_offset,
                             std::uint64_t bytes) {
    const VkDevice device = device_.handle();
    check_vk(vkResetCommandBuffer(commands_, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check_vk(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
    const VkBufferCopy region{from_offset, to_offset, bytes};
    vkCmdCopyBuffer(commands_, from, to, 1, &region);
    check_vk(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    check_vk(vkResetFences(device, 1, &fence_), "vkResetFences");
    check_vk(vkQueueSubmit(device_.queue(), 1, &submit, fence_), "vkQueueSubmit (transfer)");
    check_vk(vkWaitForFences(device, 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences (transfer)");
}

}  // namespace kcs::vulkan
