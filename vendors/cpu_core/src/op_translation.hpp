// From the ABI's kcs_op to the kernels' OpCall, and from the kernels'
// Status back to kcs_status.
#pragma once

#include <kcs/adapter.h>

#include "host_device.hpp"
#include "kcs/reference/kernels.hpp"
#include "op_request.hpp"
#include "outcome.hpp"

namespace kcs::cpu_core {

// An op as the shared parser read it (device::parse_request: every check
// the ABI requires, the same in every adapter built here) and as the
// kernels take it.
struct DescribedOp {
    device::Request request;
    kernels::OpCall call;  // every tensor's data pointer null until bound
};

// Parses op and converts it: enough for supports(). Nothing is read from
// the buffers.
Outcome describe_op(const kcs_op* op, DescribedOp& described);

// Points each tensor of a described call at its bytes: the buffer must
// exist, the offset must be a multiple of the element size, and the
// tensor's elements must lie within the buffer. For calls the kernels
// support, which are contiguous, that is every byte they touch.
Outcome bind_buffers(device::HostBuffers& buffers, DescribedOp& described);

kcs_status to_status(kernels::Status status);

}  // namespace kcs::cpu_core
