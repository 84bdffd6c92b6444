// A KCS operator call as XNNPACK operators (its operator API, xnnpack.h):
// which XNNPACK operator computes each operator and dtype configuration,
// created so that XNNPACK itself says whether it offers it on this CPU,
// then set up on the call's tensors and run. Everything XNNPACK has no
// operator for is KCS_UNSUPPORTED: no value is ever computed outside XNNPACK.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <string>

#include "host_device.hpp"
#include "op_request.hpp"

namespace kcs::xnnpack {

// What every call of an instance runs with.
struct Settings {
    pthreadpool_t pool = nullptr;  // nullptr: XNNPACK computes on the calling thread
    bool f16_matmul = false;       // offer matmul f16 x f16 -> f16 although XNNPACK accumulates it in f16
};

// Throws AdapterFailure: KCS_UNSUPPORTED for what XNNPACK does not compute
// (with XNNPACK's status where its create function refuses),
// KCS_INVALID_ARGUMENT for a malformed call.
void check_offered(const device::Request& request, const Settings& settings);

// Computes the call on tensors in host memory; throws as check_offered,
// and KCS_DEVICE_ERROR or KCS_OUT_OF_MEMORY where XNNPACK fails a call
// it accepted.
void compute(const device::Request& request, device::HostBuffers& buffers, const Settings& settings);

// "xnn_status_invalid_parameter": the enumerator's name in xnnpack.h.
std::string status_name(xnn_status status);

// matmul f16 x f16 -> f16 is declined by default: why, for messages and info().
extern const char* const kF16MatmulReason;

}  // namespace kcs::xnnpack
