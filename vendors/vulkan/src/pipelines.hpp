// The compute pipelines of the embedded SPIR-V modules (shaders/*.comp),
// created on first use for a module and a work-group size (specialization
// constant 0) and kept for the adapter's life. Every module binds its
// tensors as storage buffers 0..N-1 of set 0 and takes up to 128 bytes of
// push constants.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace kcs::vulkan {

inline constexpr std::uint32_t kPushConstantBytes = 128;  // the least maxPushConstantsSize Vulkan guarantees

struct Pipeline {
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
};

class PipelineLibrary {
public:
    explicit PipelineLibrary(VkDevice device) : device_(device) {}
    ~PipelineLibrary();
    PipelineLibrary(const PipelineLibrary&) = delete;
    PipelineLibrary& operator=(const PipelineLibrary&) = delete;

    // The pipeline of module `shader` with `bindings` storage buffers and
    // work-group size `local_size` in x. KCS_INTERNAL_ERROR for a module the
    // library does not embed.
    const Pipeline& get(std::string_view shader, std::uint32_t bindings, std::uint32_t local_size);

private:
    VkDescriptorSetLayout set_layout(std::uint32_t bindings);

    VkDevice device_;
    std::map<std::uint32_t, VkDescriptorSetLayout> set_layouts_;
    std::map<std::uint32_t, VkPipelineLayout> layouts_;
    std::map<std::pair<std::string, std::uint32_t>, Pipeline> pipelines_;
};

}  // namespace kcs::vulkan
