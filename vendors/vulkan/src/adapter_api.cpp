// The ABI entries of the Vulkan adapter (vendors/include/kcs/adapter.h):
// one instance owns a logical device with one compute queue on the
// physical device its options select, its buffers and its pipelines,
// created on first use. Options: see options.hpp. No exception crosses the
// C boundary (abi_entries.hpp).
#include <kcs/adapter.h>

#include <cstddef>
#include <memory>
#include <string>

#include "abi_entries.hpp"
#include "buffers.hpp"
#include "device.hpp"
#include "execution.hpp"
#include "op_checks.hpp"
#include "operator_table.hpp"
#include "operators.hpp"
#include "options.hpp"
#include "pipelines.hpp"
#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

constexpr std::size_t kDefaultReductionLocalSize = 256;

std::string yes_no(bool value) { return value ? "yes" : "no"; }

// The float controls as a report reader needs them, for f32 and f16.
std::string float_controls_text(const FloatControls& f) {
    if (!f.known) return "float controls: unknown (a device below Vulkan 1.2)\n";
    const auto width = [](bool preserve, bool flush, bool zero_inf_nan, bool rte, bool rtz) {
        return std::string("denorm preserve ") + yes_no(preserve) + ", denorm flush-to-zero " + yes_no(flush) +
               ", signed zero/inf/NaN preserve " + yes_no(zero_inf_nan) + ", rounding RTE " + yes_no(rte) +
               ", RTZ " + yes_no(rtz);
    };
    return "float controls f32: " +
           width(f.denorm_preserve_32, f.denorm_flush_32, f.signed_zero_inf_nan_preserve_32, f.rte_32, f.rtz_32) +
           "\nfloat controls f16: " +
           width(f.denorm_preserve_16, f.denorm_flush_16, f.signed_zero_inf_nan_preserve_16, f.rte_16, f.rtz_16) +
           "\n";
}

// What a report reader should know, one item per line.
std::string notes_of(const DeviceDescription& d, const Execution& execution, bool mapped) {
    std::string notes;
    notes.append("device type: ").append(d.type).append("; Vulkan ").append(d.api_version).append("\n");
    if (!d.driver_name.empty()) notes.append("driver: ").append(d.driver_name).append(" (").append(d.driver_info).append(")\n");
    notes.append(float_controls_text(d.float_controls));
    notes.append("f16 and bf16 storage (storageBuffer16BitAccess): ").append(yes_no(d.storage_16bit)).append("\n");
    notes.append("f16 arithmetic (shaderFloat16): ")
        .append(yes_no(d.float16))
        .append(d.float16 ? ", used by elementwise on f16; every other f16 operator computes in f32"
                          : "; f16 is stored as float16_t and computed in f32")
        .append("\n");
    notes.append("bf16: stored as uint16_t, computed in f32, rounded to nearest even in the shaders\n");
    notes.append("reduction work-group size: ").append(std::to_string(execution.reduction_local_size()));
    notes.append("; pointwise: ").append(std::to_string(execution.pointwise_local_size())).append("\n");
    notes.append("memory: ").append(mapped ? "device-local and host-visible, mapped" : "device-local, staged").append("\n");
    notes.append("shaders: GLSL compiled to SPIR-V by glslc at build time, validated by spirv-val");
    return notes;
}

}  // namespace

}  // namespace kcs::vulkan

// One open device: the opaque kcs_adapter of the ABI. Members are declared
// in the order they are needed, so destruction releases pipelines and
// buffers before the device.
struct kcs_adapter {
    kcs::vulkan::Options options;
    std::unique_ptr<kcs::vulkan::Device> device;
    std::unique_ptr<kcs::vulkan::DeviceBuffers> buffers;
    std::unique_ptr<kcs::vulkan::PipelineLibrary> pipelines;
    std::unique_ptr<kcs::vulkan::Execution> execution;
    std::string notes;       // info() strings, valid until close
    std::string last_error;  // about the last failed call; "" before any

    ~kcs_adapter() {
        execution.reset();
        pipelines.reset();
        buffers.reset();
        device.reset();
    }
};

namespace kcs::vulkan {

namespace {

// The request, checked against its operator and the device: what supports() decides.
Request checked_request(const kcs_adapter& adapter, const kcs_op* op, const Operator*& found) {
    Request request = device::checked_request(op, find_operator, found);
    check_device(request, adapter.device->description());
    return request;
}

struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = "vulkan";

    static std::unique_ptr<kcs_adapter> create(const char* const* option_strings, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->options = parse_options(option_strings, option_count);
        adapter->device = std::make_unique<Device>(adapter->options);
        adapter->buffers = std::make_unique<DeviceBuffers>(*adapter->device, adapter->options.always_staged);
        adapter->pipelines = std::make_unique<PipelineLibrary>(adapter->device->handle());
        const std::size_t local_size =
            adapter->options.local_size ? adapter->options.local_size : kDefaultReductionLocalSize;
        adapter->execution =
            std::make_unique<Execution>(*adapter->device, *adapter->buffers, *adapter->pipelines, local_size);
        adapter->notes = notes_of(adapter->device->description(), *adapter->execution, adapter->buffers->mapped());
        return adapter;
    }

    static InfoText info_text(const kcs_adapter& adapter) {
        const DeviceDescription& d = adapter.device->description();
        return {kName, KCS_ADAPTER_VERSION, d.vendor.c_str(), d.name.c_str(), d.driver_version.c_str(),
                adapter.notes.c_str()};
    }

    static void supports(kcs_adapter& adapter, const kcs_op* op) {
        const Operator* found = nullptr;
        checked_request(adapter, op, found);
    }

    static void run(kcs_adapter& adapter, const kcs_op* op) {
        const Operator* found = nullptr;
        const Request request = checked_request(adapter, op, found);
        // Recorded work is submitted and waited for before run() returns:
        // no shader may still write into a buffer the harness reads next.
        try {
            found->run(*adapter.execution, request);
        } catch (...) {
            adapter.execution->abandon();
            throw;
        }
        adapter.execution->finish();
    }
};

}  // namespace

}  // namespace kcs::vulkan

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::vulkan::Backend>::api)
