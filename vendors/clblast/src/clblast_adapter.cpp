// libkcs-adapter-clblast.so: matmul by CLBlast's GEMM on any OpenCL device,
// chosen by the opencl adapter's device selection (platform=, device=) and
// held in its buffers (vendors/opencl: kcs_opencl_device). One instance
// owns a context and an in-order queue; every product is CLBlast's. No
// exception crosses the C boundary (abi_entries.hpp).
#include <kcs/adapter.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "abi_entries.hpp"
#include "clblast_options.hpp"
#include "gemm.hpp"
#include "shared_object.hpp"

// After the project's headers: failure.hpp fixes the OpenCL version first.
#include <clblast.h>

namespace kcs::clblast_adapter {

namespace {

std::string yes_no(bool value) { return value ? "yes" : "no"; }

// CLBLAST_BUILD_OPTIONS as CLBlast reads it when it compiles a program.
// build_options= sets it for the process; CLBlast keys its compiled
// programs by routine and parameters, not options, so its caches are
// cleared for every instance, and each compiles under its own options.
// CLBlast joins its options with no separator (Program::Build in
// src/clpp11.hpp, std::accumulate from " "), so the value it reads must end
// in a space, or its own -cl-std=CL1.1 is glued to the last option and
// clBuildProgram fails with CL_INVALID_BUILD_OPTIONS (FINDINGS.md).
std::string apply_build_options(const Options& options) {
    if (options.build_options) setenv("CLBLAST_BUILD_OPTIONS", (*options.build_options + " ").c_str(), 1);
    ::clblast::ClearCache();
    const char* in_force = std::getenv("CLBLAST_BUILD_OPTIONS");
    const std::string text = in_force ? in_force : "";
    return text.find_first_not_of(' ') == std::string::npos ? "(none)" : text.substr(0, text.find_last_not_of(' ') + 1);
}

// What a report reader should know, one item per line.
std::string notes_of(const opencl::DeviceDescription& d, const Options& options, const GemmTuning& tuning,
                     const std::string& build_options) {
    const std::string threshold = std::to_string(tuning.min_indirect_size);
    std::string notes;
    notes.append("library: ").append(device::shared_object_of(reinterpret_cast<const void*>(&::clblast::ClearCache)));
    notes.append("\nplatform: ").append(d.platform_name).append(" (").append(d.platform_version).append(")");
    notes.append("\ndevice version: ").append(d.device_version).append("; ").append(d.c_version);
    notes.append("\nf32 config: denormals ").append(yes_no(d.has_denormals));
    notes.append(", fma ").append(yes_no(d.has_fma));
    notes.append(", correctly rounded divide/sqrt ").append(yes_no(d.rounds_divide_sqrt));
    notes.append("\nmatmul f32 x f32 -> f32: CLBlast SGEMM (Gemm for rank 2, GemmStridedBatched for rank 3), "
                 "row-major, alpha 1, beta 0");
    notes.append("\nmatmul f16 x f16 -> f16: CLBlast HGEMM, which computes in half; device cl_khr_fp16: ")
        .append(yes_no(d.has_fp16))
        .append(d.has_fp16 ? "" : " (declined)");
    notes.append("\nevery other operator and dtype configuration, and zero extents, are declined");
    notes.append("\ngemm_kernel: ").append(name_of(options.gemm_kernel));
    notes.append(" (XGEMM_MIN_INDIRECT_SIZE ").append(threshold);
    notes.append(", CLBlast's own ").append(std::to_string(tuning.library_min_indirect_size));
    notes.append("): the direct kernel where m*n*k < ").append(threshold).append("^3, the indirect one from there");
    notes.append("\nXgemm (indirect): ").append(tuning.xgemm);
    notes.append("\nXgemmDirect: ").append(tuning.xgemm_direct);
    notes.append("\nCLBLAST_BUILD_OPTIONS: ").append(build_options);
    return notes;
}

}  // namespace

}  // namespace kcs::clblast_adapter

// One open device: the opaque kcs_adapter of the ABI. Buffers are released
// before the queue and the context (members are destroyed in reverse).
struct kcs_adapter {
    kcs::clblast_adapter::Options options;
    kcs::opencl::OpenDevice device;
    std::unique_ptr<kcs::opencl::DeviceBuffers> buffers;
    std::string notes;       // info() strings, valid until close
    std::string last_error;  // about the last failed call; "" before any
};

namespace kcs::clblast_adapter {

namespace {

struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = "clblast";

    static std::unique_ptr<kcs_adapter> create(const char* const* option_strings, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->options = parse_options(option_strings, option_count);
        adapter->device = opencl::open_device(adapter->options.device);
        const opencl::DeviceDescription& d = adapter->device.description;
        adapter->buffers = std::make_unique<opencl::DeviceBuffers>(adapter->device.context.get(),
                                                                   adapter->device.queue.get(), d.max_alloc_bytes);
        const std::string build_options = apply_build_options(adapter->options);
        const GemmTuning tuning = tune_gemm(adapter->device.selected.device, adapter->options.gemm_kernel);
        adapter->notes = notes_of(d, adapter->options, tuning, build_options);
        return adapter;
    }

    static device::InfoText info_text(const kcs_adapter& adapter) {
        const opencl::DeviceDescription& d = adapter.device.description;
        return {kName, KCS_ADAPTER_VERSION, d.vendor.c_str(), d.name.c_str(), d.driver_version.c_str(),
                adapter.notes.c_str()};
    }

    static void supports(kcs_adapter& adapter, const kcs_op* op) {
        check_gemm(device::parse_request(op), adapter.device.description);
    }

    static void run(kcs_adapter& adapter, const kcs_op* op) {
        const device::Request request = device::parse_request(op);
        check_gemm(request, adapter.device.description);
        const cl_command_queue queue = adapter.device.queue.get();
        // Whatever happened, the queue is drained before run() returns: no
        // kernel may still write into a buffer the harness reads next.
        try {
            run_gemm(request, *adapter.buffers, queue);
        } catch (...) {
            clFinish(queue);
            throw;
        }
        opencl::check_cl(clFinish(queue), "clFinish");
    }
};

}  // namespace

}  // namespace kcs::clblast_adapter

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::clblast_adapter::Backend>::api)
