// The ABI entries of every CPU adapter: an instance, its host buffers, and
// run() through the reference kernels.
#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "adapter_info.hpp"
#include "adapter_options.hpp"
#include "host_device.hpp"
#include "kcs/cpu_core/cpu_adapter.hpp"
#include "op_translation.hpp"

// One open CPU adapter: the opaque kcs_adapter of the ABI.
struct kcs_adapter {
    const kcs::cpu_core::AdapterProfile* profile = nullptr;
    kcs::kernels::Settings settings;  // violation, threads, and the run count
    kcs::device::HostBuffers buffers;
    std::string device;  // info() strings, valid until close
    std::string notes;
    std::string last_error;  // about the last failed call; "" before any
};

#include "adapter_failure.hpp"

namespace kcs::cpu_core {

namespace {

using kernels::Result;

// The message of the last failed open on this thread: open has no instance
// to keep it in.
thread_local std::string open_error;

using kcs::device::record;  // keeps a message for last_error without throwing

// Runs the body of one ABI call. A failed Outcome's message becomes the
// last error, as does a refusal of the host buffers (an AdapterFailure); no
// exception crosses the C boundary.
template <class Body>
kcs_status guarded(std::string& last_error, Body&& body) noexcept {
    try {
        Outcome outcome = body();
        if (!outcome.ok()) last_error = std::move(outcome.message);
        return outcome.status;
    } catch (const device::AdapterFailure& failure) {
        return record(last_error, failure.status(), failure.what());
    } catch (const std::bad_alloc&) {
        return record(last_error, KCS_OUT_OF_MEMORY, "out of host memory");
    } catch (const std::exception& e) {
        return record(last_error, KCS_INTERNAL_ERROR, e.what());
    } catch (...) {
        return record(last_error, KCS_INTERNAL_ERROR, "unknown exception");
    }
}

Outcome from_kernels(const Result& result) { return {to_status(result.status), result.message}; }

}  // namespace

kcs_status open_adapter(const AdapterProfile& profile, const char* const* options, std::uint32_t option_count,
                        kcs_adapter** out) {
    return guarded(open_error, [&]() -> Outcome {
        if (!out) return invalid_argument("open: out is NULL");
        *out = nullptr;
        AdapterOptions parsed;
        if (Outcome o = parse_options(profile, options, option_count, parsed); !o.ok()) return o;
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->profile = &profile;
        adapter->settings.threads = parsed.threads;
        adapter->settings.violation = parsed.violation;
        adapter->settings.conformer = parsed.conformer;
        adapter->device = device::host_device_name();
        adapter->notes = adapter_notes(profile, parsed);
        *out = adapter.release();
        return success();
    });
}

namespace abi {

void close(kcs_adapter* adapter) { delete adapter; }

kcs_status info(kcs_adapter* adapter, kcs_info* out) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&]() -> Outcome {
        if (!out) return invalid_argument("info: out is NULL");
        if (out->struct_size == 0) return invalid_argument("info: kcs_info.struct_size is not set");
        // A harness built against an older, shorter kcs_info gets the
        // fields its struct has room for.
        const auto has = [&](std::size_t offset) { return out->struct_size >= offset + sizeof(const char*); };
        if (has(offsetof(kcs_info, adapter_name))) out->adapter_name = adapter->profile->name;
        if (has(offsetof(kcs_info, adapter_version))) out->adapter_version = adapter->profile->version;
        if (has(offsetof(kcs_info, vendor))) out->vendor = "KCS";
        if (has(offsetof(kcs_info, device))) out->device = adapter->device.c_str();
        if (has(offsetof(kcs_info, driver_version))) out->driver_version = "";
        if (has(offsetof(kcs_info, notes))) out->notes = adapter->notes.c_str();
        return success();
    });
}

kcs_status supports(kcs_adapter* adapter, const kcs_op* op) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&]() -> Outcome {
        DescribedOp described;
        if (Outcome o = describe_op(op, described); !o.ok()) return o;
        return from_kernels(kernels::supports(described.call, adapter->settings));
    });
}

kcs_status alloc(kcs_adapter* adapter, std::uint64_t bytes, kcs_buffer* out) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&]() -> Outcome {
        if (!out) return invalid_argument("alloc: out is NULL");
        *out = adapter->buffers.allocate(bytes);
        return success();
    });
}

kcs_status release(kcs_adapter* adapter, kcs_buffer buffer) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&] {
        adapter->buffers.release(buffer);
        return success();
    });
}

kcs_status write(kcs_adapter* adapter, kcs_buffer buffer, std::uint64_t offset, const void* src,
                 std::uint64_t bytes) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&] {
        adapter->buffers.write(buffer, offset, src, bytes);
        return success();
    });
}

kcs_status read(kcs_adapter* adapter, kcs_buffer buffer, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&] {
        adapter->buffers.read(buffer, offset, dst, bytes);
        return success();
    });
}

kcs_status run(kcs_adapter* adapter, const kcs_op* op) {
    if (!adapter) return KCS_INVALID_ARGUMENT;
    return guarded(adapter->last_error, [&]() -> Outcome {
        DescribedOp described;
        if (Outcome o = describe_op(op, described); !o.ok()) return o;
        // Declining comes first: an unsupported op is UNSUPPORTED whatever its buffers.
        if (Result r = kernels::supports(described.call, adapter->settings); r.status != kernels::Status::ok)
            return from_kernels(r);
        if (Outcome o = bind_buffers(adapter->buffers, described); !o.ok()) return o;
        ++adapter->settings.calls;
        return from_kernels(kernels::run(described.call, adapter->settings));
    });
}

const char* last_error(kcs_adapter* adapter) {
    return adapter ? adapter->last_error.c_str() : open_error.c_str();
}

}  // namespace abi

}  // namespace kcs::cpu_core
