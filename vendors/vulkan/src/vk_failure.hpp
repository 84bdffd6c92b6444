// Vulkan errors as adapter failures (adapter_failure.hpp).
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "adapter_failure.hpp"

namespace kcs::vulkan {

using namespace kcs::device;  // AdapterFailure, fail, invalid, unsupported, guarded

// "VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)".
std::string vk_result_text(VkResult result);

// Throws unless result is VK_SUCCESS: KCS_OUT_OF_MEMORY for the two
// out-of-memory results, KCS_DEVICE_ERROR for anything else, "what: VK_... (n)".
void check_vk(VkResult result, const char* what);

}  // namespace kcs::vulkan
