// The ABI over a library that computes on the host CPU (vendors/blas_common,
// vendors/onednn): the device is the host CPU with buffers in host memory
// (host_device.hpp), each call is parsed into a Request (op_request.hpp),
// and everything the library computes is the Library's business. No kernel
// of KCS runs in these adapters.
//
// An adapter module supplies a Library for each open instance and writes
//   struct Module { static constexpr const char* kName = "NAME";
//                   static std::unique_ptr<kcs::host::Library> open(const char* const* options,
//                                                                   std::uint32_t option_count); };
//   KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::host::Backend<Module>>::api)
// A Module whose library reads past the end of its inputs also defines
//   static constexpr std::uint64_t kReadSlack = BYTES;
// and every buffer of its instances is followed by that many zero bytes.
#pragma once

#include <kcs/adapter.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "abi_entries.hpp"
#include "host_device.hpp"
#include "op_request.hpp"
#include "shared_object.hpp"

namespace kcs::host {

// What info() reports of an instance besides the adapter's name and version.
struct Description {
    std::string vendor, device, driver_version, notes;
};

// The library behind one open instance. Both calls throw AdapterFailure,
// KCS_UNSUPPORTED for what the library does not compute; run() checks the
// request as supports() does before it computes.
class Library {
public:
    virtual ~Library() = default;
    // Asked at every info(), so that it may name what the library chose for the calls so far.
    virtual Description describe() const = 0;
    virtual void supports(const device::Request& request) = 0;
    virtual void run(const device::Request& request, device::HostBuffers& buffers) = 0;
};

// The host address of a tensor's elements; KCS_INVALID_ARGUMENT for an
// offset that is not a multiple of the element size or a range outside
// its buffer, named by `what` ("matmul: A").
std::byte* tensor_address(device::HostBuffers& buffers, const device::TensorRef& tensor, const std::string& what);

using device::shared_object_of;  // shared_object.hpp

}  // namespace kcs::host

// One open instance: the opaque kcs_adapter of the ABI.
struct kcs_adapter {
    std::unique_ptr<kcs::host::Library> library;
    std::unique_ptr<kcs::device::HostBuffers> buffers = std::make_unique<kcs::device::HostBuffers>();
    kcs::host::Description description;  // info() strings, valid until the next info() or close
    std::string last_error;               // about the last failed call; "" before any
};

namespace kcs::host {

// The backend of device::AbiEntries for a Module (see the top of this file).
template <class Module>
struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = Module::kName;

    static std::unique_ptr<kcs_adapter> create(const char* const* options, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        if constexpr (requires { Module::kReadSlack; })
            adapter->buffers = std::make_unique<device::HostBuffers>(Module::kReadSlack);
        adapter->library = Module::open(options, option_count);
        return adapter;
    }
    static device::InfoText info_text(kcs_adapter& adapter) {
        adapter.description = adapter.library->describe();
        const Description& d = adapter.description;
        return {kName, KCS_ADAPTER_VERSION, d.vendor.c_str(), d.device.c_str(), d.driver_version.c_str(),
                d.notes.c_str()};
    }
    static void supports(kcs_adapter& adapter, const kcs_op* op) {
        adapter.library->supports(device::parse_request(op));
    }
    static void run(kcs_adapter& adapter, const kcs_op* op) {
        adapter.library->run(device::parse_request(op), *adapter.buffers);
    }
};

}  // namespace kcs::host
