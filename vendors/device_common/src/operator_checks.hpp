// What a device adapter computes of each v1 operator (spec/v1/operators),
// decided from names, dtypes, shapes and attributes alone: each check
// throws AdapterFailure, KCS_UNSUPPORTED for what the adapter declines,
// KCS_INVALID_ARGUMENT for a call that contradicts itself. Shared by the
// OpenCL and Vulkan adapters, whose kernels compute the same set: f32, f16
// and bf16 (accumulating in f32), row-major contiguous tensors, matmul of
// rank 2 or 3, attention of rank 2, gather under the raise policy.
#pragma once

#include <cstdint>

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

// What the kernels take from a checked call, as every device adapter reads it.

// matmul: C [batch, m, n] = A [batch, m, k] x B [batch, k, n]; batch 1 for rank 2.
struct MatmulExtents {
    std::uint64_t batch, m, k, n;
};
MatmulExtents matmul_extents(const Request& request);

// attention: Q [queries, head_dim], K and V [keys, head_dim]; the scale
// attribute rounded to f32, or 1/sqrt(head_dim) in f32.
struct AttentionParameters {
    std::uint64_t queries, keys, head_dim;
    float scale;
    bool causal;
};
AttentionParameters attention_parameters(const Request& request);

// The norms' eps rounded to the f32 accumulator, as the operator files define it.
float eps_of(const Request& request);

// The work-group size for one row of `length` elements (or keys) of a row
// kernel whose full group is `full` invocations (a power of two): `full`,
// or for a shorter row the next power of two at or above its length, at
// least kMinRowLocalSize. The result has the bits of the full group's: each
// invocation holds at most one element, the invocations past the row hold
// the identity (-0 for sums, -inf for maxima), and the first levels of the
// full group's tree add exactly that, so the smaller group's tree is the
// rest of the full one's. A group of 256 for a row of 19 spent most of its
// time (lavapipe: 8 vectors and three barriers) on identities.
inline constexpr std::uint64_t kMinRowLocalSize = 32;
std::uint64_t row_local_size(std::uint64_t full, std::uint64_t length);

}  // namespace kcs::device
