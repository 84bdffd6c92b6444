// What a device adapter computes of each v1 operator (spec/v1/operators),
// decided from names, dtypes, shapes and attributes alone: each check
// throws AdapterFailure, KCS_UNSUPPORTED for what the adapter declines,
// KCS_INVALID_ARGUMENT for a call that contradicts itself. Shared by the
// OpenCL and Vulkan adapters, whose kernels compute the same set: f32, f16
// and bf16 (accumulating in f32), row-major contiguous tensors, matmul of
// rank 2 or 3, attention of rank 2, gather under the raise policy.
#pragma once

#include "op_request.hpp"

namespace kcs::device {

void check_matmul(const Request& request);
void check_reduce_sum(const Request& request);
void check_reduce_max(const Request& request);
void check_softmax(const Request& request);
void check_layernorm(const Request& request);
void check_rmsnorm(const Request& request);
void check_attention(const Request& request);
void check_unary(const Request& request);
void check_elementwise(const Request& request);
void check_cast(const Request& request);
void check_gather(const Request& request);

}  // namespace kcs::device
