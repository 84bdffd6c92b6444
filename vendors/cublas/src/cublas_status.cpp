#include "cublas_status.hpp"

#include <cublas_v2.h>

#include <string>

#include "adapter_failure.hpp"

namespace kcs::cublas_adapter {

void check_cublas(cublasStatus_t status, const char* call) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    const std::string message = std::string(call) + " returns " + cublasGetStatusName(status) + " (" +
                                cublasGetStatusString(status) + ")";
    device::fail(status == CUBLAS_STATUS_ALLOC_FAILED      ? KCS_OUT_OF_MEMORY
                 : status == CUBLAS_STATUS_NOT_SUPPORTED ? KCS_UNSUPPORTED
                                                         : KCS_DEVICE_ERROR,
                 message);
}

}  // namespace kcs::cublas_adapter
