// matmul by CLBlast's GEMM on the device's own buffers: what the adapter
// computes, and what CLBlast chose to compute it with. No kernel of KCS is
// involved: every product is one call into libclblast.
#pragma once

#include <cstddef>
#include <string>

#include "clblast_options.hpp"
#include "device.hpp"          // vendors/opencl
#include "device_buffers.hpp"  // vendors/opencl
#include "op_request.hpp"

namespace kcs::clblast_adapter {

// CLBlast's GEMM parameters for a device, for info() and gemm_kernel=.
struct GemmTuning {
    std::size_t library_min_indirect_size = 0;  // CLBlast's XGEMM_MIN_INDIRECT_SIZE (its database)
    std::size_t min_indirect_size = 0;          // the one in force for this instance
    std::string xgemm;                          // the indirect kernel's parameters, "GEMMK=0 KREG=1 ..."
    std::string xgemm_direct;                   // the direct kernel's
};

// Sets XGEMM_MIN_INDIRECT_SIZE for `kernel` (CLBlast's own value for auto)
// on the device, for f32 and f16 (CLBlast keeps it per process and
// device), and says what is in force. Throws KCS_DEVICE_ERROR when CLBlast
// refuses.
GemmTuning tune_gemm(cl_device_id device, GemmKernel kernel);

// Throws AdapterFailure, KCS_UNSUPPORTED, for what CLBlast's GEMM does not
// compute on this device: another operator, dtypes other than f32 -> f32
// (SGEMM) and f16 -> f16 (HGEMM, where the device has cl_khr_fp16), a zero
// extent (CLBlast requires m, n, k and the batch count >= 1).
void check_gemm(const device::Request& request, const opencl::DeviceDescription& device);

// Enqueues the product on `queue`: rank 2 by Gemm, rank 3 by
// GemmStridedBatched, row-major, lda = k, ldb = ldc = n, alpha 1, beta 0.
// The caller waits for the queue.
void run_gemm(const device::Request& request, opencl::DeviceBuffers& buffers, cl_command_queue queue);

}  // namespace kcs::clblast_adapter
