#include "pipelines.hpp"

#include <vector>

#include "embedded_shaders.hpp"
#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

const EmbeddedShader& find_shader(std::string_view name) {
    for (const EmbeddedShader& shader : embedded_shaders())
        if (shader.name == name) return shader;
    fail(KCS_INTERNAL_ERROR, "no embedded shader module named " + std::string(name));
}

}  // namespace

PipelineLibrary::~PipelineLibrary() {
    for (auto& [key, p] : pipelines_) vkDestroyPipeline(device_, p.pipeline, nullptr);
    for (auto& [bindings, layout] : layouts_) vkDestroyPipelineLayout(device_, layout, nullptr);
    for (auto& [bindings, layout] : set_layouts_) vkDestroyDescriptorSetLayout(device_, layout, nullptr);
}

VkDescriptorSetLayout PipelineLibrary::set_layout(std::uint32_t bindings) {
    if (const auto it = set_layouts_.find(bindings); it != set_layouts_.end()) return it->second;
    std::vector<VkDescriptorSetLayoutBinding> list(bindings);
    for (std::uint32_t i = 0; i < bindings; ++i)
        list[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = bindings;
    info.pBindings = list.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    check_vk(vkCreateDescriptorSetLayout(device_, &info, nullptr, &layout), "vkCreateDescriptorSetLayout");
    set_layouts_.emplace(bindings, layout);

    const VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo pipeline_layout{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pipeline_layout.setLayoutCount = 1;
    pipeline_layout.pSetLayouts = &layout;
    pipeline_layout.pushConstantRangeCount = 1;
    pipeline_layout.pPushConstantRanges = &push;
    VkPipelineLayout created = VK_NULL_HANDLE;
    check_vk(vkCreatePipelineLayout(device_, &pipeline_layout, nullptr, &created), "vkCreatePipelineLayout");
    layouts_.emplace(bindings, created);
    return layout;
}

const Pipeline& PipelineLibrary::get(std::string_view shader, std::uint32_t bindings, std::uint32_t local_size) {
    const auto key = std::make_pair(std::string(shader), local_size);
    if (const auto it = pipelines_.find(key); it != pipelines_.end()) return it->second;
    const EmbeddedShader& code = find_shader(shader);
    Pipeline p;
    p.set_layout = set_layout(bindings);
    p.layout = layouts_.at(bindings);

    VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    module_info.codeSize = code.word_count * sizeof(std::uint32_t);
    module_info.pCode = code.words;
    VkShaderModule module = VK_NULL_HANDLE;
    check_vk(vkCreateShaderModule(device_, &module_info, nullptr, &module), "vkCreateShaderModule");

    // Constant 0 is the work-group size in x; a module with a fixed size ignores it.
    const VkSpecializationMapEntry entry{0, 0, sizeof(std::uint32_t)};
    const VkSpecializationInfo specialization{1, &entry, sizeof local_size, &local_size};
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = &specialization;
    info.layout = p.layout;
    const VkResult created = vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &p.pipeline);
    vkDestroyShaderModule(device_, module, nullptr);
    check_vk(created, ("vkCreateComputePipelines (" + std::string(shader) + ")").c_str());
    return pipelines_.emplace(key, p).first->second;
}

}  // namespace kcs::vulkan
