// OpenCL errors as adapter failures (adapter_failure.hpp).
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <kcs/adapter.h>

#include <string>

#include "adapter_failure.hpp"

namespace kcs::opencl {

using namespace kcs::device;  // AdapterFailure, fail, invalid, unsupported, guarded

// "CL_OUT_OF_RESOURCES (-5)".
std::string cl_error_text(cl_int error);

// Throws unless error is CL_SUCCESS: KCS_OUT_OF_MEMORY for the two allocation
// failures, KCS_DEVICE_ERROR for anything else, with "what: CL_... (n)".
void check_cl(cl_int error, const char* what);

}  // namespace kcs::opencl
