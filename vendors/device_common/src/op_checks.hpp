// The checks the operators share: operand counts, the dtype configurations
// the operator files list, attributes, row shapes. Each throws
// AdapterFailure: KCS_UNSUPPORTED for what the adapter declines (a dtype
// configuration or attribute it does not offer, a rank it does not
// compute), KCS_INVALID_ARGUMENT for a call that contradicts itself.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include "op_request.hpp"

namespace kcs::device {

struct DtypeConfig {
    Dtype input;   // every input's dtype
    Dtype output;
};

// matmul, reduce_sum, softmax, the norms and attention: f32 -> f32, and
// f16 or bf16 inputs to their own dtype or to f32.
inline constexpr DtypeConfig kAccumulatingConfigs[] = {
    {Dtype::f32, Dtype::f32}, {Dtype::f16, Dtype::f32}, {Dtype::f16, Dtype::f16},
    {Dtype::bf16, Dtype::f32}, {Dtype::bf16, Dtype::bf16}};
// reduce_max, unary, elementwise: the output has the input's dtype.
inline constexpr DtypeConfig kSameDtypeConfigs[] = {
    {Dtype::f32, Dtype::f32}, {Dtype::f16, Dtype::f16}, {Dtype::bf16, Dtype::bf16}};

bool is_float(Dtype dtype);  // f32, f16, bf16: what the kernels load and store

void check_contiguous(const Request& request);
void check_counts(const Request& request, std::size_t inputs, std::size_t outputs);
// The dtypes form one of the configs; a declared accumulator is f32.
void check_dtypes(const Request& request, std::span<const DtypeConfig> configs);
void check_no_function(const Request& request);

struct AttributeRule {
    std::string_view name;
    bool is_flag;  // bool (or 0/1 int); otherwise a finite number
};
void check_attributes(const Request& request, std::initializer_list<AttributeRule> rules);

// The reduced operand of a row-wise operator: rank >= 1, rows of >= 1 element.
void check_row_operand(const Request& request, const TensorRef& x);
void check_same_shape(const Request& request, const TensorRef& y, const TensorRef& x);
// y holds one value per row of x: x's leading dimensions, or them flattened.
void check_reduced_output(const Request& request, const TensorRef& y, const TensorRef& x);
// gamma or beta: [N] for rows of N.
void check_feature_vector(const Request& request, const char* name, const TensorRef& vector, const TensorRef& x);
// eps > 0, also once rounded to f32.
void check_eps(const Request& request);

struct Rows {
    std::uint64_t count = 1;
    std::uint64_t length = 0;
};
Rows rows_of(const TensorRef& x);  // leading dimensions flattened

// KCS_INVALID_ARGUMENT unless [offset, offset + bytes) lies within buffer
// `handle` of `size` bytes (written so that offset + bytes cannot overflow).
void check_buffer_range(const char* what, kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                        std::uint64_t size);

// The name of a kernel's instance for a dtype configuration:
// kernel_name("softmax", f16, f32) is "softmax_f16_f32": the OpenCL kernel
// (opencl/src/programs.cpp) or Vulkan shader module (vulkan/shaders/shaders.cmake).
std::string kernel_name(const std::string& base, Dtype in, Dtype out);

}  // namespace kcs::device
