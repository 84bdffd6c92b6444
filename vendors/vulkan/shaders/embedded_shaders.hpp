// The SPIR-V modules of the Vulkan adapter, compiled from the .comp files of
// this folder at build time and embedded in the library (shaders.cmake).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace kcs::vulkan {

struct EmbeddedShader {
    std::string_view name;       // e.g. "matmul_f16_f32", "unary_erf_bf16_bf16"
    const std::uint32_t* words;  // the SPIR-V module
    std::size_t word_count;
};

std::span<const EmbeddedShader> embedded_shaders();  // every module, by name

}  // namespace kcs::vulkan
