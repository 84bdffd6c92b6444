// libkcs-adapter-cublas.so: matmul by cuBLAS's GEMM
// (cublasGemmStridedBatchedEx), or with api=cublaslt by cublasLtMatmul, on
// a CUDA device, in the library's own modes (options.hpp); every other
// operator is declined. One instance owns a cuBLAS (or cuBLASLt) handle on
// the device device=N selects, and its buffers in device memory
// (vendors/cuda_device). No exception crosses the C boundary
// (abi_entries.hpp).
#include <kcs/adapter.h>
#include <cublas_v2.h>

#include <memory>
#include <string>

#include "abi_entries.hpp"
#include "adapter_failure.hpp"
#include "cublas_status.hpp"
#include "cuda_device.hpp"
#include "gemm.hpp"
#include "lt_matmul.hpp"
#include "options.hpp"
#include "shared_object.hpp"

namespace kcs::cublas_adapter {

namespace {

struct HandleDeleter {
    void operator()(cublasContext* handle) const { cublasDestroy(handle); }
};
using Handle = std::unique_ptr<cublasContext, HandleDeleter>;

struct WorkspaceDeleter {
    void operator()(void* memory) const { cudaFree(memory); }
};
using Workspace = std::unique_ptr<void, WorkspaceDeleter>;

}  // namespace

}  // namespace kcs::cublas_adapter

// One open device: the opaque kcs_adapter of the ABI. The handle and the
// workspace go before the buffers (members are destroyed in reverse).
struct kcs_adapter {
    kcs::cublas_adapter::Options options;
    kcs::cuda::DeviceDescription device;
    std::string driver;  // "13.0": info()'s driver version
    std::unique_ptr<kcs::cuda::DeviceBuffers> buffers;  // on `device`, made at open
    kcs::cublas_adapter::Workspace workspace;
    std::uint64_t workspace_bytes = 0;
    kcs::cublas_adapter::Handle handle;       // api=cublas
    kcs::cublas_adapter::LtHandle lt_handle;  // api=cublaslt
    std::string notes;       // info() strings, valid until close
    std::string last_error;  // about the last failed call; "" before any
};

namespace kcs::cublas_adapter {

namespace {

std::string notes_of(const kcs_adapter& a) {
    const Options& o = a.options;
    const bool lt = o.api == Api::cublaslt;
    std::string notes;
    if (lt) {
        notes.append("library: ").append(device::shared_object_of(reinterpret_cast<const void*>(&cublasLtCreate)));
        notes.append("\ncuBLASLt version: ").append(std::to_string(cublasLtGetVersion()));
    } else {
        int version = 0;
        cublasGetVersion(a.handle.get(), &version);
        notes.append("library: ").append(device::shared_object_of(reinterpret_cast<const void*>(&cublasCreate_v2)));
        notes.append("\ncuBLAS version: ").append(std::to_string(version));
    }
    notes.append("\ndevice ").append(std::to_string(a.device.index)).append(": ").append(a.device.name);
    notes.append(", compute capability ").append(std::to_string(a.device.major)).append(".");
    notes.append(std::to_string(a.device.minor));
    notes.append("\nCUDA driver ").append(cuda::version_text(a.device.driver_version));
    notes.append(", runtime ").append(cuda::version_text(a.device.runtime_version));
    notes.append("\nmath: ").append(name_of(o.math));
    if (lt) {
        notes.append("; algorithm: result ").append(std::to_string(o.algorithm)).append(" of cuBLASLt's heuristic");
        notes.append("; split_k: ").append(o.split_k ? std::to_string(*o.split_k) : "the heuristic's own");
        notes.append("; workspace: ").append(std::to_string(a.workspace_bytes)).append(" bytes");
    } else {
        notes.append(" (cublasSetMathMode ").append(std::to_string(static_cast<int>(math_mode(o)))).append(")");
        notes.append("; reduced_precision_reduction: ").append(o.reduced_precision_reduction ? "true" : "false");
        notes.append("; atomics: ").append(o.atomics ? "allowed" : "not_allowed");
        notes.append("; workspace: ").append(o.workspace ? std::to_string(*o.workspace) + " bytes" : "cuBLAS's own");
    }
    notes.append(lt ? "\nmatmul: cublasLtMatmul" : "\nmatmul: cublasGemmStridedBatchedEx");
    notes.append(", row-major C = A B as column-major C^T = B^T A^T, alpha 1, beta 0; f32 -> f32, f16 and bf16 -> "
                 "their own dtype or f32, accumulating in f32 (compute ");
    notes.append(o.math == Math::pedantic ? "CUBLAS_COMPUTE_32F_PEDANTIC"
                 : o.math == Math::tf32   ? "CUBLAS_COMPUTE_32F_FAST_TF32 for f32 inputs, CUBLAS_COMPUTE_32F otherwise"
                                          : "CUBLAS_COMPUTE_32F");
    notes.append(")\nevery other operator is declined");
    return notes;
}

void* allocate_workspace(kcs_adapter& adapter, std::uint64_t bytes) {
    void* memory = nullptr;
    if (bytes) cuda::check_cuda(cudaMalloc(&memory, bytes), "cudaMalloc (workspace)");
    adapter.workspace.reset(memory);
    adapter.workspace_bytes = bytes;
    return memory;
}

void open_cublas(kcs_adapter& adapter) {
    cublasHandle_t handle = nullptr;
    check_cublas(cublasCreate(&handle), "cublasCreate");
    adapter.handle.reset(handle);
    check_cublas(cublasSetMathMode(handle, math_mode(adapter.options)), "cublasSetMathMode");
    check_cublas(cublasSetAtomicsMode(handle, adapter.options.atomics ? CUBLAS_ATOMICS_ALLOWED
                                                                      : CUBLAS_ATOMICS_NOT_ALLOWED),
                 "cublasSetAtomicsMode");
    if (adapter.options.workspace) {
        void* memory = allocate_workspace(adapter, *adapter.options.workspace);
        check_cublas(cublasSetWorkspace(handle, memory, *adapter.options.workspace), "cublasSetWorkspace");
    }
}

void open_cublaslt(kcs_adapter& adapter) {
    cublasLtHandle_t handle = nullptr;
    check_cublas(cublasLtCreate(&handle), "cublasLtCreate");
    adapter.lt_handle.reset(handle);
    allocate_workspace(adapter, adapter.options.workspace.value_or(kDefaultLtWorkspace));
}

// The matmul as cuBLASLt will compute it: its problem and the algorithm
// the options choose (what supports() decides, as run() does).
struct LtCall {
    LtProblem problem;
    LtAlgorithm algorithm;
};
LtCall plan_lt(kcs_adapter& adapter, const GemmPlan& plan) {
    LtCall call{lt_problem(plan), {}};
    call.algorithm =
        choose_algorithm(adapter.lt_handle.get(), plan, call.problem, adapter.options, adapter.workspace_bytes);
    return call;
}

struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = "cublas";

    static std::unique_ptr<kcs_adapter> create(const char* const* option_strings, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->options = parse_options(option_strings, option_count);
        adapter->device = cuda::open_device(adapter->options.device);
        adapter->buffers = std::make_unique<cuda::DeviceBuffers>(adapter->device.index);
        if (adapter->options.api == Api::cublaslt)
            open_cublaslt(*adapter);
        else
            open_cublas(*adapter);
        adapter->driver = cuda::version_text(adapter->device.driver_version);
        adapter->notes = notes_of(*adapter);
        return adapter;
    }

    static device::InfoText info_text(const kcs_adapter& adapter) {
        return {kName, KCS_ADAPTER_VERSION, "NVIDIA", adapter.device.name.c_str(), adapter.driver.c_str(),
                adapter.notes.c_str()};
    }

    static void supports(kcs_adapter& adapter, const kcs_op* op) {
        const GemmPlan plan = plan_gemm(device::parse_request(op), adapter.options);
        if (adapter.options.api == Api::cublaslt && !plan.empty) {
            cuda::check_cuda(cudaSetDevice(adapter.device.index), "cudaSetDevice");
            plan_lt(adapter, plan);
        }
    }

    static void run(kcs_adapter& adapter, const kcs_op* op) {
        const device::Request request = device::parse_request(op);
        const GemmPlan plan = plan_gemm(request, adapter.options);
        if (plan.empty) return;
        // The current device is the calling thread's: the harness may call from another than open's.
        cuda::check_cuda(cudaSetDevice(adapter.device.index), "cudaSetDevice");
        const void* a = adapter.buffers->bind(request.inputs[0], "matmul: A");
        const void* b = adapter.buffers->bind(request.inputs[1], "matmul: B");
        void* c = adapter.buffers->bind(request.outputs[0], "matmul: C");
        const float one = 1.0f, zero = 0.0f;
        // cuBLAS's A is KCS's B and its B is KCS's A (C^T = B^T A^T).
        if (adapter.options.api == Api::cublaslt) {
            const LtCall call = plan_lt(adapter, plan);
            check_cublas(cublasLtMatmul(adapter.lt_handle.get(), call.problem.operation.get(), &one, b,
                                        call.problem.first.get(), a, call.problem.second.get(), &zero, c,
                                        call.problem.c.get(), c, call.problem.c.get(), &call.algorithm.algo,
                                        adapter.workspace.get(), adapter.workspace_bytes, nullptr),
                         ("cublasLtMatmul, " + describe(call.algorithm)).c_str());
        } else {
            check_cublas(cublasGemmStridedBatchedEx(adapter.handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, plan.m, plan.n,
                                                    plan.k, &one, b, plan.input_type, plan.ld_first, plan.stride_b, a,
                                                    plan.input_type, plan.ld_second, plan.stride_a, &zero, c,
                                                    plan.output_type, plan.ld_c, plan.stride_c, plan.batch,
                                                    plan.compute, CUBLAS_GEMM_DEFAULT),
                         "cublasGemmStridedBatchedEx");
        }
        cuda::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
};

}  // namespace

}  // namespace kcs::cublas_adapter

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::cublas_adapter::Backend>::api)
