// The ABI entries of the OpenCL adapter (vendors/include/kcs/adapter.h):
// one instance owns a context and an in-order queue on the device its
// options select, its buffers, and its programs, built on first use.
// Options: see options.hpp. No exception crosses the C boundary
// (abi_entries.hpp).
#include <kcs/adapter.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "abi_entries.hpp"
#include "device.hpp"
#include "device_buffers.hpp"
#include "execution.hpp"
#include "failure.hpp"
#include "operator_table.hpp"
#include "operators.hpp"
#include "options.hpp"
#include "programs.hpp"

namespace kcs::opencl {

namespace {

constexpr std::size_t kDefaultReductionLocalSize = 256;

std::string yes_no(bool value) { return value ? "yes" : "no"; }

// What a report reader should know, one item per line.
std::string notes_of(const DeviceDescription& d, const Options& options, std::size_t local_size) {
    std::string notes;
    notes.append("platform: ").append(d.platform_name).append(" (").append(d.platform_version).append(")\n");
    notes.append("device version: ").append(d.device_version).append("; ").append(d.c_version).append("\n");
    notes.append("f16: stored as half (vload_half, vstore_half_rte) and computed in f32; device cl_khr_fp16: ")
        .append(yes_no(d.has_fp16))
        .append(d.has_fp16 ? " (not used)" : "")
        .append("\n");
    notes.append("bf16: stored as ushort, computed in f32, rounded to nearest even in the kernels\n");
    notes.append("f32 config: denormals ").append(yes_no(d.has_denormals));
    notes.append(", fma ").append(yes_no(d.has_fma));
    notes.append(", correctly rounded divide/sqrt ").append(yes_no(d.rounds_divide_sqrt)).append("\n");
    notes.append("build options: ").append(options.build_options.empty() ? "(none)" : options.build_options).append("\n");
    notes.append("reduction work-group size: ").append(std::to_string(local_size)).append("\n");
    notes.append("program cache: ")
        .append(options.cache_dir ? options.cache_dir->string() : std::string("none"))
        .append("\n");
    notes.append("extensions: ").append(d.extensions);
    return notes;
}

}  // namespace

}  // namespace kcs::opencl

// One open device: the opaque kcs_adapter of the ABI. Members are declared
// in the order they are needed, so destruction releases kernels and buffers
// before the queue and the context.
struct kcs_adapter {
    kcs::opencl::Options options;
    kcs::opencl::DeviceDescription device;
    kcs::opencl::Context context;
    kcs::opencl::Queue queue;
    std::unique_ptr<kcs::opencl::DeviceBuffers> buffers;
    std::unique_ptr<kcs::opencl::ProgramLibrary> programs;
    std::unique_ptr<kcs::opencl::Execution> execution;
    std::string notes;       // info() strings, valid until close
    std::string last_error;  // about the last failed call; "" before any

    ~kcs_adapter() {
        // Kernels and scratch memory first, then buffers, then the queue and context.
        execution.reset();
        programs.reset();
        buffers.reset();
        queue.reset();
        context.reset();
    }
};

namespace kcs::opencl {

namespace {

struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = "opencl";

    static std::unique_ptr<kcs_adapter> create(const char* const* option_strings, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->options = parse_options(option_strings, option_count);
        OpenDevice opened = open_device(adapter->options);
        const SelectedDevice selected = opened.selected;
        adapter->device = std::move(opened.description);
        adapter->context = std::move(opened.context);
        adapter->queue = std::move(opened.queue);
        adapter->buffers = std::make_unique<DeviceBuffers>(adapter->context.get(), adapter->queue.get(),
                                                           adapter->device.max_alloc_bytes);
        std::optional<ProgramCache> cache;
        if (adapter->options.cache_dir) cache.emplace(*adapter->options.cache_dir);
        adapter->programs = std::make_unique<ProgramLibrary>(adapter->context.get(), selected.device, adapter->device,
                                                             adapter->options.build_options, std::move(cache));
        const std::size_t local_size =
            adapter->options.local_size ? adapter->options.local_size : kDefaultReductionLocalSize;
        adapter->execution = std::make_unique<Execution>(adapter->context.get(), adapter->queue.get(), *adapter->buffers,
                                                         *adapter->programs, adapter->device, local_size);
        adapter->notes = notes_of(adapter->device, adapter->options, local_size);
        return adapter;
    }

    static InfoText info_text(const kcs_adapter& adapter) {
        const DeviceDescription& d = adapter.device;
        return {kName, KCS_ADAPTER_VERSION, d.vendor.c_str(), d.name.c_str(), d.driver_version.c_str(),
                adapter.notes.c_str()};
    }

    static void supports(kcs_adapter&, const kcs_op* op) {
        const Operator* found = nullptr;
        device::checked_request(op, find_operator, found);
    }

    static void run(kcs_adapter& adapter, const kcs_op* op) {
        const Operator* found = nullptr;
        const Request request = device::checked_request(op, find_operator, found);
        // Whatever happened, the queue is drained before run() returns: no
        // kernel may still write into a buffer the harness reads next.
        try {
            found->run(*adapter.execution, request);
        } catch (...) {
            clFinish(adapter.queue.get());
            throw;
        }
        check_cl(clFinish(adapter.queue.get()), "clFinish");
    }
};

}  // namespace

}  // namespace kcs::opencl

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::opencl::Backend>::api)
