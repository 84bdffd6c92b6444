// How the adapter reports a failed step: an AdapterFailure carries the
// kcs_status and the message last_error returns. Thrown anywhere inside the
// adapter, caught at the C boundary (adapter_api.cpp), never beyond it.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <kcs/adapter.h>

#include <stdexcept>
#include <string>

namespace kcs::opencl {

class AdapterFailure : public std::runtime_error {
public:
    AdapterFailure(kcs_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    kcs_status status() const { return status_; }

private:
    kcs_status status_;
};

[[noreturn]] inline void fail(kcs_status status, const std::string& message) { throw AdapterFailure(status, message); }
[[noreturn]] inline void invalid(const std::string& message) { fail(KCS_INVALID_ARGUMENT, message); }
[[noreturn]] inline void unsupported(const std::string& message) { fail(KCS_UNSUPPORTED, message); }

// "CL_OUT_OF_RESOURCES (-5)".
std::string cl_error_text(cl_int error);

// Throws unless error is CL_SUCCESS: KCS_OUT_OF_MEMORY for the two allocation
// failures, KCS_DEVICE_ERROR for anything else, with "what: CL_... (n)".
void check_cl(cl_int error, const char* what);

}  // namespace kcs::opencl
