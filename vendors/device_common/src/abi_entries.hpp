// The C ABI entries (vendors/include/kcs/adapter.h) of a device adapter,
// the same for every device: each entry checks its instance, runs the
// backend's part under guarded() so that no exception crosses the C
// boundary, and keeps the message last_error() returns. A backend supplies:
//   Adapter                                kcs_adapter, once defined
//   kName                                  the adapter's name
//   create(options, count) -> std::unique_ptr<kcs_adapter>   open a device
//   info_text(kcs_adapter&) -> InfoText                      what info() reports
//   supports(kcs_adapter&, const kcs_op*)  throws for what it does not compute
//   run(kcs_adapter&, const kcs_op*)       computes and waits for the device
// and its kcs_adapter has `std::string last_error` and `buffers` with
// allocate, release, write and read.
#pragma once

#include <kcs/adapter.h>

#include <cstddef>
#include <string>

#include "adapter_failure.hpp"

namespace kcs::device {

struct InfoText {
    const char* adapter_name;
    const char* adapter_version;
    const char* vendor;
    const char* device;
    const char* driver_version;
    const char* notes;
};

// Fills the fields a harness's kcs_info has room for (an older, shorter
// struct gets the ones it knows); KCS_INVALID_ARGUMENT without a struct_size.
void fill_info(kcs_info* out, const InfoText& text);

template <class Backend>
struct AbiEntries {
    // kcs_adapter, named through the backend so that its members are looked
    // up where the backend has defined it.
    using Adapter = typename Backend::Adapter;

    // The message of the last failed open on this thread: open has no instance.
    static inline thread_local std::string open_error;

    static kcs_status open(const char* const* options, std::uint32_t option_count, Adapter** out) {
        return guarded(open_error, [&] {
            if (!out) invalid("open: out is NULL");
            *out = nullptr;
            *out = Backend::create(options, option_count).release();
        });
    }
    static void close(Adapter* adapter) { delete adapter; }
    static kcs_status info(Adapter* adapter, kcs_info* out) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { fill_info(out, Backend::info_text(*adapter)); });
    }
    static kcs_status supports(Adapter* adapter, const kcs_op* op) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { Backend::supports(*adapter, op); });
    }
    static kcs_status alloc(Adapter* adapter, std::uint64_t bytes, kcs_buffer* out) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] {
            if (!out) invalid("alloc: out is NULL");
            *out = adapter->buffers->allocate(bytes);
        });
    }
    static kcs_status release(Adapter* adapter, kcs_buffer buffer) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { adapter->buffers->release(buffer); });
    }
    static kcs_status write(Adapter* adapter, kcs_buffer buffer, std::uint64_t offset, const void* src,
                            std::uint64_t bytes) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { adapter->buffers->write(buffer, offset, src, bytes); });
    }
    static kcs_status read(Adapter* adapter, kcs_buffer buffer, std::uint64_t offset, void* dst,
                           std::uint64_t bytes) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { adapter->buffers->read(buffer, offset, dst, bytes); });
    }
    static kcs_status run(Adapter* adapter, const kcs_op* op) {
        if (!adapter) return KCS_INVALID_ARGUMENT;
        return guarded(adapter->last_error, [&] { Backend::run(*adapter, op); });
    }
    static const char* last_error(Adapter* adapter) {
        return adapter ? adapter->last_error.c_str() : open_error.c_str();
    }

    static constexpr kcs_adapter_api api{
        KCS_ADAPTER_ABI_VERSION, sizeof(kcs_adapter_api), Backend::kName, open, close, info, supports, alloc, release,
        write, read, run, last_error,
    };
};

}  // namespace kcs::device
