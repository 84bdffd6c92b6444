// From the ABI's kcs_op to the kernels' OpCall, and from the kernels'
// Status back to kcs_status.
#pragma once

#include <kcs/adapter.h>

#include "host_buffers.hpp"
#include "kcs/reference/kernels.hpp"
#include "outcome.hpp"

namespace kcs::cpu_core {

// Checks what the ABI requires of op (struct size, names, dtypes, ranks,
// extents, attributes) and converts it, with every tensor's data pointer
// null: enough for supports(). Nothing is read from the buffers.
Outcome describe_op(const kcs_op* op, kernels::OpCall& call);

// Points each tensor of a described call at its bytes: the buffer must
// exist, the offset must be a multiple of the element size, and the
// tensor's elements must lie within the buffer. For calls the kernels
// support, which are contiguous, that is every byte they touch.
Outcome bind_buffers(const kcs_op& op, HostBuffers& buffers, kernels::OpCall& call);

kcs_status to_status(kernels::Status status);

}  // namespace kcs::cpu_core
