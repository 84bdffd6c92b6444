// The adapter ABI (kcs/adapter.h) implemented once for every adapter that
// runs the reference kernels on the host CPU. An adapter module supplies
// its profile and an open() that forwards to open_adapter(); everything
// else in its function table is the core's:
//
//   constexpr kcs::cpu_core::AdapterProfile kProfile{"reference-cpu", KCS_ADAPTER_VERSION, false};
//   kcs_status open(const char* const* options, uint32_t count, kcs_adapter** out) {
//       return kcs::cpu_core::open_adapter(kProfile, options, count, out);
//   }
//   constexpr kcs_adapter_api kApi = kcs::cpu_core::make_api(kProfile, open);
//   KCS_ADAPTER_DEFINE_EXPORTS(kApi)   // kcs_adapter_negotiate and kcs_adapter_entry
//
// Buffers are host memory; run() hands the kernels pointers into them.
// Options: threads=N (worker threads per run, 1 to 1024; default 1, so a
// run is serial and its timing reproducible: the kernels give the same
// bits for every thread count), and, where the profile offers violations,
// violation=NAME (a catalog implementation id of kcs::kernels::violations(),
// or none, the default). Any other key is refused with
// KCS_INVALID_ARGUMENT. No exception crosses the C boundary: bad_alloc
// becomes KCS_OUT_OF_MEMORY, anything else KCS_INTERNAL_ERROR, each with a
// message in last_error.
#pragma once

#include <kcs/adapter.h>

#include <cstdint>

namespace kcs::cpu_core {

// What tells one CPU adapter from another.
struct AdapterProfile {
    const char* name;        // the ABI table's and info()'s adapter name, e.g. "reference-cpu"
    const char* version;     // info()'s adapter_version
    bool offers_violations;  // accepts violation=NAME (the calibration adapter)
};

// The adapter's open(): parses the options and creates an instance.
kcs_status open_adapter(const AdapterProfile& profile, const char* const* options, std::uint32_t option_count,
                        kcs_adapter** out);

// The core's implementations of the ABI entries other than open.
namespace abi {
void close(kcs_adapter* adapter);
kcs_status info(kcs_adapter* adapter, kcs_info* out);
kcs_status supports(kcs_adapter* adapter, const kcs_op* op);
kcs_status alloc(kcs_adapter* adapter, std::uint64_t bytes, kcs_buffer* out);
kcs_status release(kcs_adapter* adapter, kcs_buffer buffer);
kcs_status write(kcs_adapter* adapter, kcs_buffer buffer, std::uint64_t offset, const void* src,
                 std::uint64_t bytes);
kcs_status read(kcs_adapter* adapter, kcs_buffer buffer, std::uint64_t offset, void* dst, std::uint64_t bytes);
kcs_status run(kcs_adapter* adapter, const kcs_op* op);
const char* last_error(kcs_adapter* adapter);
}  // namespace abi

using OpenFunction = kcs_status (*)(const char* const*, std::uint32_t, kcs_adapter**);

// The function table of an adapter whose open() calls open_adapter().
constexpr kcs_adapter_api make_api(const AdapterProfile& profile, OpenFunction open) {
    return kcs_adapter_api{
        KCS_ADAPTER_ABI_VERSION, sizeof(kcs_adapter_api), profile.name, open, abi::close, abi::info,
        abi::supports,           abi::alloc,              abi::release, abi::write, abi::read, abi::run,
        abi::last_error,
    };
}

}  // namespace kcs::cpu_core
