#include "execution.hpp"

#include <algorithm>

#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

constexpr std::uint32_t kSetsPerRun = 8;      // dispatches per operator call (every operator takes one)
constexpr std::uint32_t kBindingsPerSet = 8;  // attention, the largest, binds five

std::uint32_t floor_power_of_two(std::uint64_t n) {
    std::uint32_t p = 1;
    while (p * 2ull <= n) p *= 2;
    return p;
}

// The largest power-of-two work-group size at most `wanted` that the device
// allows in x, with a float of shared memory per invocation.
std::uint32_t work_group_size(const VkPhysicalDeviceLimits& limits, std::uint64_t wanted) {
    std::uint64_t size = std::min<std::uint64_t>(wanted, limits.maxComputeWorkGroupInvocations);
    size = std::min<std::uint64_t>(size, limits.maxComputeWorkGroupSize[0]);
    size = std::min<std::uint64_t>(size, limits.maxComputeSharedMemorySize / sizeof(float));
    return floor_power_of_two(std::max<std::uint64_t>(size, 1));
}

}  // namespace

Execution::Execution(const Device& device, DeviceBuffers& buffers, PipelineLibrary& pipelines,
                     std::size_t reduction_local_size)
    : device_(device),
      buffers_(buffers),
      pipelines_(pipelines),
      reduction_local_size_(work_group_size(device.description().limits, reduction_local_size)),
      pointwise_local_size_(work_group_size(device.description().limits, 256)) {
    const VkDevice d = device.handle();
    VkCommandBufferAllocateInfo allocate{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate.commandPool = device.command_pool();
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    check_vk(vkAllocateCommandBuffers(d, &allocate, &commands_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check_vk(vkCreateFence(d, &fence, nullptr, &fence_), "vkCreateFence");
    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerRun * kBindingsPerSet};
    VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pool.maxSets = kSetsPerRun;
    pool.poolSizeCount = 1;
    pool.pPoolSizes = &size;
    check_vk(vkCreateDescriptorPool(d, &pool, nullptr, &pool_), "vkCreateDescriptorPool");
}

Execution::~Execution() {
    const VkDevice d = device_.handle();
    vkDeviceWaitIdle(d);
    if (pool_) vkDestroyDescriptorPool(d, pool_, nullptr);
    if (fence_) vkDestroyFence(d, fence_, nullptr);
    if (commands_) vkFreeCommandBuffers(d, device_.command_pool(), 1, &commands_);
}

Bound Execution::bind(const TensorRef& tensor, const char* what) const {
    const std::uint64_t element = size_of(tensor.dtype);
    if (tensor.offset % element != 0)
        invalid(std::string(what) + ": offset " + std::to_string(tensor.offset) +
                " is not a multiple of the element size " + std::to_string(element));
    const std::uint64_t bytes = tensor.elements() * element;
    const Allocation* allocation = nullptr;
    try {
        allocation = &buffers_.find(tensor.buffer, tensor.offset, bytes, "tensor");
    } catch (const AdapterFailure& failure) {
        invalid(std::string(what) + ": " + failure.what());
    }
    const VkPhysicalDeviceLimits& limits = device_.description().limits;
    const std::uint64_t alignment = std::max<std::uint64_t>(limits.minStorageBufferOffsetAlignment, 1);
    Bound bound;
    bound.buffer = allocation->buffer();
    bound.offset = tensor.offset / alignment * alignment;
    bound.at = static_cast<std::uint32_t>((tensor.offset - bound.offset) / element);
    // Whole words, never empty, never past the VkBuffer (word-rounded, at least 16 bytes).
    const std::uint64_t buffer_bytes = std::max<std::uint64_t>((allocation->bytes() + 3) / 4 * 4, 16);
    bound.range = std::min(std::max<std::uint64_t>((tensor.offset + bytes - bound.offset + 3) / 4 * 4, 4),
                           buffer_bytes - bound.offset);
    if (bound.range > limits.maxStorageBufferRange)
        unsupported(std::string(what) + ": " + std::to_string(bytes) + " bytes exceed the device's maxStorageBufferRange (" +
                    std::to_string(limits.maxStorageBufferRange) + ")");
    return bound;
}

Bound Execution::bind(const Allocation& allocation) const {
    const std::uint64_t range = std::max<std::uint64_t>((allocation.bytes() + 3) / 4 * 4, 16);
    if (range > device_.description().limits.maxStorageBufferRange)
        unsupported(std::to_string(range) + " bytes of scratch exceed the device's maxStorageBufferRange (" +
                    std::to_string(device_.description().limits.maxStorageBufferRange) + ")");
    return {allocation.buffer(), 0, range, 0};
}

VkCommandBuffer Execution::recording() {
    if (!recording_) {
        check_vk(vkResetCommandBuffer(commands_, 0), "vkResetCommandBuffer");
        check_vk(vkResetDescriptorPool(device_.handle(), pool_, 0), "vkResetDescriptorPool");
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        check_vk(vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer");
        recording_ = true;
    }
    return commands_;
}

void Execution::barrier(VkPipelineStageFlags from, VkAccessFlags written) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    b.srcAccessMask = written;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(commands_, from, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                         &b, 0, nullptr, 0, nullptr);
}

void Execution::dispatch(const std::string& shader, const std::vector<Bound>& tensors, const Push& push,
                         std::uint32_t local_size, const std::array<std::uint32_t, 3>& groups) {
    if (groups[0] == 0 || groups[1] == 0 || groups[2] == 0) return;
    const auto bindings = static_cast<std::uint32_t>(tensors.size());
    const Pipeline& pipeline = pipelines_.get(shader, bindings, local_size);
    const VkCommandBuffer commands = recording();

    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &pipeline.set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    check_vk(vkAllocateDescriptorSets(device_.handle(), &allocate, &set), "vkAllocateDescriptorSets");
    std::vector<VkDescriptorBufferInfo> infos(bindings);
    std::vector<VkWriteDescriptorSet> writes(bindings);
    for (std::uint32_t i = 0; i < bindings; ++i) {
        infos[i] = {tensors[i].buffer, tensors[i].offset, tensors[i].range};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(device_.handle(), bindings, writes.data(), 0, nullptr);

    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    if (!push.empty())
        vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                           static_cast<std::uint32_t>(push.size() * sizeof(std::uint32_t)), push.data());
    vkCmdDispatch(commands, groups[0], groups[1], groups[2]);
    barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
}

void Execution::dispatch_linear(const std::string& shader, const std::vector<Bound>& tensors, const Push& push,
                                std::uint32_t local_size, std::uint64_t count) {
    const VkPhysicalDeviceLimits& limits = device_.description().limits;
    const std::uint64_t width = std::min<std::uint64_t>(std::max<std::uint64_t>(count, 1), limits.maxComputeWorkGroupCount[0]);
    const std::uint64_t height = ceil_div(count, width);
    if (height > limits.maxComputeWorkGroupCount[1])
        unsupported(shader + ": " + std::to_string(count) + " work-groups exceed the device's dispatch limits");
    dispatch(shader, tensors, push, local_size,
             {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 1});
}

void Execution::fill(const Allocation& allocation, std::uint32_t value) {
    vkCmdFillBuffer(recording(), allocation.buffer(), 0, VK_WHOLE_SIZE, value);
    barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
}

void Execution::finish() {
    if (!recording_) return;
    recording_ = false;
    check_vk(vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    check_vk(vkResetFences(device_.handle(), 1, &fence_), "vkResetFences");
    check_vk(vkQueueSubmit(device_.queue(), 1, &submit, fence_), "vkQueueSubmit");
    check_vk(vkWaitForFences(device_.handle(), 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
}

void Execution::abandon() noexcept {
    if (!recording_) return;
    recording_ = false;
    vkEndCommandBuffer(commands_);
}

const Allocation& Execution::scratch(std::uint64_t bytes) {
    if (scratch_.bytes() < bytes || !scratch_.buffer()) scratch_ = buffers_.create(bytes);
    return scratch_;
}

const Allocation& Execution::flag() {
    if (!flag_.buffer()) flag_ = buffers_.create(sizeof(std::int32_t));
    return flag_;
}

std::int32_t Execution::read_flag() {
    std::int32_t value = 0;
    buffers_.download(flag(), 0, &value, sizeof value);
    return value;
}

}  // namespace kcs::vulkan
