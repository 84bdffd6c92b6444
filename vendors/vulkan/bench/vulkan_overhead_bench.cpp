// What one small operator call costs at each layer, on the adapter's default
// Vulkan device:
//   Bare:     vkQueueSubmit + vkWaitForFences of a command buffer recorded
//             once with the adapter's own reduce_sum pipeline (descriptor set,
//             push constants, dispatch), nothing else
//   Adapter:  the adapter's run() in this process (checks, binding,
//             recording, submit, wait)
//   Isolated: run() through kcs-worker, as the harness calls it in a case
// Inputs are written once; each iteration is one call. Sizes are small, so
// the figures are the fixed costs the "overhead <= 2x" is about.
// Beside them, Adapter_Matmul_128x4096x128 and Adapter_Attention_* time the
// compute of the calls that dominate a quick certification
// (register_compute_benchmarks).
#include <benchmark/benchmark.h>

#include <vector>

#include "adapter_call_bench.hpp"
#include "buffers.hpp"
#include "device.hpp"
#include "execution.hpp"
#include "pipelines.hpp"
#include "vk_failure.hpp"

namespace {

using namespace kcs::vulkan;
using namespace kcs::device::bench;  // kRows, kLength: reduce_sum x [8, 64] -> y [8], f32

void Bare_ReduceSum(benchmark::State& state) {
    const Device device{Options{}};
    DeviceBuffers buffers(device, false);
    PipelineLibrary pipelines(device.handle());
    const VkDevice d = device.handle();
    const Allocation x = buffers.create(kRows * kLength * 4), y = buffers.create(kRows * 4);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    buffers.upload(x, 0, ones.data(), ones.size() * 4);
    const Pipeline& pipeline = pipelines.get("reduce_sum_f32_f32", 2, 256);

    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
    VkDescriptorPool pool = VK_NULL_HANDLE;
    check_vk(vkCreateDescriptorPool(d, &pool_info, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1,
                                         &pipeline.set_layout};
    VkDescriptorSet set = VK_NULL_HANDLE;
    check_vk(vkAllocateDescriptorSets(d, &set_info, &set), "vkAllocateDescriptorSets");
    const VkDescriptorBufferInfo infos[2] = {{x.buffer(), 0, VK_WHOLE_SIZE}, {y.buffer(), 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2];
    for (std::uint32_t i = 0; i < 2; ++i)
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, i, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                     nullptr, &infos[i], nullptr};
    vkUpdateDescriptorSets(d, 2, writes, 0, nullptr);

    VkCommandBufferAllocateInfo command_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr,
                                             device.command_pool(), VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer commands = VK_NULL_HANDLE;
    check_vk(vkAllocateCommandBuffers(d, &command_info, &commands), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, nullptr};
    check_vk(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
    const std::uint32_t push[4] = {0, 0, kLength, kRows};  // x_at, y_at, length, rows
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(commands, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, push);
    vkCmdDispatch(commands, kRows, 1, 1);
    check_vk(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
    VkFence fence = VK_NULL_HANDLE;
    check_vk(vkCreateFence(d, &fence_info, nullptr, &fence), "vkCreateFence");
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO, nullptr, 0, nullptr, nullptr, 1, &commands, 0, nullptr};
    for (auto _ : state) {
        check_vk(vkQueueSubmit(device.queue(), 1, &submit, fence), "vkQueueSubmit");
        check_vk(vkWaitForFences(d, 1, &fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        check_vk(vkResetFences(d, 1, &fence), "vkResetFences");
    }
    float sum = 0;
    buffers.download(y, 0, &sum, sizeof sum);
    if (sum != kLength) state.SkipWithError("the bare dispatch computed a wrong sum");
    vkDestroyFence(d, fence, nullptr);
    vkFreeCommandBuffers(d, device.command_pool(), 1, &commands);
    vkDestroyDescriptorPool(d, pool, nullptr);
}
BENCHMARK(Bare_ReduceSum)->Unit(benchmark::kMicrosecond);

void Adapter_ReduceSum(benchmark::State& state) { adapter_reduce_sum(state, KCS_VULKAN_ADAPTER); }
BENCHMARK(Adapter_ReduceSum)->Unit(benchmark::kMicrosecond);

void Isolated_ReduceSum(benchmark::State& state) { isolated_reduce_sum(state, KCS_VULKAN_ADAPTER); }
BENCHMARK(Isolated_ReduceSum)->Unit(benchmark::kMicrosecond);

// Not overheads: the compute of the calls that dominate a quick certification.
const bool kComputeRegistered = (register_compute_benchmarks(KCS_VULKAN_ADAPTER), true);

}  // namespace
