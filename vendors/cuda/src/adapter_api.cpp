// The ABI entries of the CUDA adapter (vendors/include/kcs/adapter.h): one
// instance computes on the device device=N selects (vendors/cuda_device),
// owns its buffers there and its modules, compiled by NVRTC on first use
// under the float controls of its options (options.hpp). No exception
// crosses the C boundary (abi_entries.hpp).
#include <kcs/adapter.h>

#include <memory>
#include <string>

#include "abi_entries.hpp"
#include "adapter_failure.hpp"
#include "compiler.hpp"
#include "cuda_device.hpp"
#include "execution.hpp"
#include "modules.hpp"
#include "operator_table.hpp"
#include "operators.hpp"
#include "options.hpp"

// One open device: the opaque kcs_adapter of the ABI. Members are declared
// in the order they are needed, so destruction releases the scratch memory
// and the modules before the buffers.
struct kcs_adapter {
    kcs::cuda::Options options;
    kcs::cuda::DeviceDescription device;
    std::string driver;  // "13.0": info()'s driver version
    std::unique_ptr<kcs::cuda::DeviceBuffers> buffers;  // on `device`, made at open
    std::unique_ptr<kcs::cuda::ModuleLibrary> modules;
    std::unique_ptr<kcs::cuda::Execution> execution;
    std::string notes;       // info() strings, valid until close
    std::string last_error;  // about the last failed call; "" before any
};

namespace kcs::cuda {

namespace {

std::string architecture_of(const DeviceDescription& d) {
    return "sm_" + std::to_string(d.major) + std::to_string(d.minor);
}

// What a report reader should know, one item per line.
std::string notes_of(const kcs_adapter& a, const std::string& include_dir) {
    const DeviceDescription& d = a.device;
    std::string notes;
    notes.append("device ").append(std::to_string(d.index)).append(": ").append(d.name);
    notes.append(", compute capability ").append(std::to_string(d.major)).append(".").append(std::to_string(d.minor));
    notes.append(", ").append(std::to_string(d.global_memory >> 20)).append(" MiB");
    notes.append("\nCUDA driver ").append(version_text(d.driver_version));
    notes.append(", runtime ").append(version_text(d.runtime_version));
    notes.append("\nkernels: CUDA C++ compiled on first use by ").append(nvrtc_description());
    notes.append(" for ").append(architecture_of(d)).append(", headers from ").append(include_dir);
    notes.append("\nfloat controls: ").append(describe(a.options.controls));
    notes.append("\nf16 and bf16: __half and __nv_bfloat16, computed in f32, stored with round to nearest even");
    notes.append("\nreduction block size: ").append(std::to_string(a.options.local_size));
    notes.append(" (capped by each kernel's limit); one block per row, a fixed tree");
    return notes;
}

struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = "cuda";

    static std::unique_ptr<kcs_adapter> create(const char* const* option_strings, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->options = parse_options(option_strings, option_count);
        const std::string include_dir = cuda_include_dir(adapter->options.include);
        adapter->device = open_device(adapter->options.device);
        adapter->driver = version_text(adapter->device.driver_version);
        adapter->buffers = std::make_unique<DeviceBuffers>(adapter->device.index);
        adapter->modules = std::make_unique<ModuleLibrary>(architecture_of(adapter->device), adapter->options.controls,
                                                           include_dir);
        adapter->execution =
            std::make_unique<Execution>(*adapter->modules, *adapter->buffers, adapter->options.local_size);
        adapter->notes = notes_of(*adapter, include_dir);
        return adapter;
    }

    static device::InfoText info_text(const kcs_adapter& adapter) {
        return {kName, KCS_ADAPTER_VERSION, "NVIDIA", adapter.device.name.c_str(), adapter.driver.c_str(),
                adapter.notes.c_str()};
    }

    static void supports(kcs_adapter&, const kcs_op* op) {
        const Operator* found = nullptr;
        device::checked_request(op, find_operator, found);
    }

    static void run(kcs_adapter& adapter, const kcs_op* op) {
        const Operator* found = nullptr;
        const device::Request request = device::checked_request(op, find_operator, found);
        // The current device is the calling thread's: the harness may call from another than open's.
        check_cuda(cudaSetDevice(adapter.device.index), "cudaSetDevice");
        cudaGetLastError();  // a failure an earlier call reported stays the runtime's "last error" otherwise
        // Whatever happened, the device is idle before run() returns: no
        // kernel may still write into a buffer the harness reads next.
        try {
            found->run(*adapter.execution, request);
        } catch (...) {
            cudaDeviceSynchronize();
            throw;
        }
        check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
};

}  // namespace

}  // namespace kcs::cuda

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::cuda::Backend>::api)
