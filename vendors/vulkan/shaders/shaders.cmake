# The Vulkan adapter's compute shaders, compiled to SPIR-V at build time,
# validated, and embedded in a static library:
#   include(vendors/vulkan/shaders/shaders.cmake)
#   kcs_vulkan_shader_library(kcs_vulkan_shaders)
# The library defines kcs::vulkan::embedded_shaders() (embedded_shaders.hpp,
# whose folder it puts on its users' include path), one module per name below.
set(KCS_VULKAN_SHADER_DIR ${CMAKE_CURRENT_LIST_DIR})

function(kcs_vulkan_shader_library TARGET_NAME)
  find_program(KCS_GLSLC glslc)
  find_program(KCS_SPIRV_VAL spirv-val)
  if(NOT KCS_GLSLC OR NOT KCS_SPIRV_VAL)
    message(FATAL_ERROR "The Vulkan adapter compiles its shaders with glslc and validates them with "
                        "spirv-val; install the Debian packages glslc and spirv-tools "
                        "(apt-get install glslc spirv-tools).")
  endif()
  set(dir ${KCS_VULKAN_SHADER_DIR})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${TARGET_NAME}_spirv)
  file(MAKE_DIRECTORY ${out})
  set(names "")
  set(spirv_files "")

  # One module: NAME from SOURCE.comp with the given -D defines. glslc writes
  # NAME.spv.tmp, spirv-val must accept it, and only then is it NAME.spv, so
  # an invalid module fails every build, not just the first.
  function(kcs_vulkan_module name source)
    set(spv ${out}/${name}.spv)
    set(defines "")
    foreach(define IN LISTS ARGN)
      list(APPEND defines -D${define})
    endforeach()
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${KCS_GLSLC} --target-env=vulkan1.1 -fshader-stage=compute -O -I${dir} ${defines}
              ${dir}/${source} -o ${spv}.tmp
      COMMAND ${KCS_SPIRV_VAL} --target-env vulkan1.1 ${spv}.tmp
      COMMAND ${CMAKE_COMMAND} -E rename ${spv}.tmp ${spv}
      DEPENDS ${dir}/${source} ${dir}/common.glsl
      COMMENT "SPIR-V ${name}"
      VERBATIM)
    set(names ${names} ${name} PARENT_SCOPE)
    set(spirv_files ${spirv_files} ${spv} PARENT_SCOPE)
  endfunction()

  set(accumulating f32_f32 f16_f32 f16_f16 bf16_f32 bf16_bf16)
  foreach(config IN LISTS accumulating)
    string(REPLACE "_" ";" io ${config})
    list(GET io 0 in)
    list(GET io 1 out_type)
    set(types IN=${in} OUT=${out_type})
    kcs_vulkan_module(matmul_${config} matmul.comp ${types})
    kcs_vulkan_module(reduce_sum_${config} reduce.comp ${types} REDUCE_SUM)
    kcs_vulkan_module(softmax_${config} softmax.comp ${types})
    kcs_vulkan_module(layernorm_${config} norms.comp ${types} LAYERNORM)
    kcs_vulkan_module(rmsnorm_${config} norms.comp ${types} RMSNORM)
    kcs_vulkan_module(attention_${config} attention.comp ${types})
  endforeach()
  foreach(type f32 f16 bf16)
    set(types IN=${type} OUT=${type})
    kcs_vulkan_module(reduce_max_${type}_${type} reduce.comp ${types} REDUCE_MAX)
    foreach(fn exp log tanh erf gelu sigmoid rsqrt)
      kcs_vulkan_module(unary_${fn}_${type}_${type} unary.comp ${types} FUNCTION=${fn})
    endforeach()
    foreach(fn add mul maximum)
      kcs_vulkan_module(elementwise_${fn}_${type}_${type} elementwise.comp ${types} FUNCTION=${fn})
    endforeach()
    kcs_vulkan_module(elementwise_mul_add_${type}_${type} elementwise.comp ${types} MUL_ADD)
  endforeach()
  # f16 arithmetic in float16_t (the device needs shaderFloat16).
  foreach(fn add mul maximum)
    kcs_vulkan_module(elementwise_${fn}_f16_f16_native elementwise.comp IN=f16 OUT=f16 FUNCTION=${fn} NATIVE_F16)
  endforeach()
  kcs_vulkan_module(elementwise_mul_add_f16_f16_native elementwise.comp IN=f16 OUT=f16 MUL_ADD NATIVE_F16)
  foreach(config f32_f16 f32_bf16 f16_f32 bf16_f32)
    string(REPLACE "_" ";" io ${config})
    list(GET io 0 in)
    list(GET io 1 out_type)
    kcs_vulkan_module(cast_${config} cast.comp IN=${in} OUT=${out_type})
  endforeach()
  kcs_vulkan_module(gather_u32_i32 gather.comp)
  kcs_vulkan_module(gather_u32_i64 gather.comp INDEX_I64)
  kcs_vulkan_module(gather_u16_i32 gather.comp TABLE_U16)
  kcs_vulkan_module(gather_u16_i64 gather.comp TABLE_U16 INDEX_I64)

  set(generated ${CMAKE_CURRENT_BINARY_DIR}/${TARGET_NAME}_embedded_shaders.cpp)
  add_custom_command(
    OUTPUT ${generated}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${generated} -DSPIRV_DIR=${out} "-DNAMES=${names}"
            -P ${dir}/embed_spirv.cmake
    DEPENDS ${spirv_files} ${dir}/embed_spirv.cmake
    COMMENT "Embedding the Vulkan SPIR-V modules"
    VERBATIM)
  add_library(${TARGET_NAME} STATIC ${generated} ${dir}/embedded_shaders.hpp)
  target_include_directories(${TARGET_NAME} PUBLIC ${dir})
  target_compile_features(${TARGET_NAME} PUBLIC cxx_std_20)
  set_target_properties(${TARGET_NAME} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
