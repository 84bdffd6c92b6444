// The v1 operators the adapter computes: what each computes is decided by
// the checks shared with the OpenCL adapter (operator_checks.hpp), plus the
// device's 16-bit storage for f16 and bf16 tensors; run() records the
// operator's dispatches (operators.cpp), which finish() submits.
#pragma once

#include <string_view>

#include "execution.hpp"
#include "op_request.hpp"

namespace kcs::vulkan {

struct Operator {
    std::string_view name;
    void (*check)(const Request& request);
    void (*run)(Execution& execution, const Request& request);
};

// The operator of that name; throws KCS_UNSUPPORTED for an unknown one.
const Operator& find_operator(std::string_view name);

// KCS_UNSUPPORTED for an f16 or bf16 tensor on a device without
// storageBuffer16BitAccess.
void check_device(const Request& request, const DeviceDescription& device);

}  // namespace kcs::vulkan
