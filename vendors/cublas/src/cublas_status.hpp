// cuBLAS's and cuBLASLt's status as an AdapterFailure naming the call:
// KCS_OUT_OF_MEMORY for CUBLAS_STATUS_ALLOC_FAILED, KCS_UNSUPPORTED for
// CUBLAS_STATUS_NOT_SUPPORTED, KCS_DEVICE_ERROR otherwise.
#pragma once

#include <cublas_api.h>

namespace kcs::cublas_adapter {

void check_cublas(cublasStatus_t status, const char* call);

}  // namespace kcs::cublas_adapter
