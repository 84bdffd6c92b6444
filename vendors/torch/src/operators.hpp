// A KCS operator call as ATen calls (PyTorch's C++ tensor library,
// ATen/ATen.h): which at:: function computes each operator, on tensors
// that view the call's buffers in place. ATen itself says what it offers:
// supports() runs the same call on zero-filled tensors of the call's
// shapes and dtypes, and a NotImplementedError (ATen's "not implemented
// for 'Half'") or a result in another dtype than the call's output is
// KCS_UNSUPPORTED. No value is ever computed outside ATen.
#pragma once

#include <map>
#include <string>

#include "host_device.hpp"
#include "op_request.hpp"
#include "options.hpp"

namespace kcs::torch {

class Aten {
public:
    explicit Aten(const Options& options) : options_(options) {}

    // Throws AdapterFailure: KCS_UNSUPPORTED for what ATen does not compute
    // (with ATen's reason), KCS_INVALID_ARGUMENT for a malformed call.
    void check_offered(const device::Request& request);

    // Computes the call with ATen under the instance's settings; throws as
    // check_offered, KCS_OUT_OF_RANGE for ATen's IndexError (index_select's
    // "index out of range") and KCS_DEVICE_ERROR for any other ATen error.
    void compute(const device::Request& request, device::HostBuffers& buffers);

    // The ATen functions each operator maps to, under this instance's options.
    std::string mapping() const;

private:
    Options options_;
    std::map<std::string, std::string> refusals_;  // each probed call's ATen refusal, "" where offered
};

// The thread count every call runs with: threads=N, or ATen's own choice
// when the process started.
int threads_of(const Options& options);

}  // namespace kcs::torch
