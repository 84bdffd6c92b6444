// The ABI over one CPU BLAS library (vendors/openblas, vendors/blis): what
// the adapters share, so that each of them is only the calls into its
// library. The device is the host CPU with buffers in host memory
// (host_device.hpp); the one operator computed is matmul on f32 inputs and
// an f32 output, every product by the library's own sgemm; everything else
// is KCS_UNSUPPORTED. No kernel of KCS runs in these adapters.
//
// An adapter module supplies a Library for each open instance and writes
//   struct Module { static constexpr const char* kName = "NAME";
//                   static std::unique_ptr<kcs::blas::Library> open(const kcs::blas::Options&); };
//   KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::blas::Backend<Module>>::api)
#pragma once

#include <kcs/adapter.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "abi_entries.hpp"
#include "host_device.hpp"
#include "op_request.hpp"

namespace kcs::blas {

// One row-major product C [m, n] = A [m, k] x B [k, n] of contiguous f32
// matrices: lda = k, ldb = n, ldc = n (each at least 1, as BLAS requires
// of a leading dimension even where the extent is 0). alpha is 1 and beta
// 0: C is written, never read.
struct Gemm {
    std::int64_t m, n, k;
    const float* a;
    const float* b;
    float* c;
};

// What info() reports of an instance besides the adapter's name and version.
struct Description {
    std::string vendor, device, driver_version, notes;
};

// The library behind one open instance.
class Library {
public:
    virtual ~Library() = default;
    virtual Description describe() const = 0;
    virtual void sgemm(const Gemm& gemm) = 0;
};

// The options of open(): threads=N, or the library's own default.
struct Options {
    std::optional<int> threads;
};
Options parse_options(const char* const* options, std::uint32_t option_count, std::string_view adapter);

// The file of the shared object that defines `symbol`, as the dynamic
// loader found it (dladdr), followed by " -> " and the file it resolves
// to where that is another (a symlink, e.g. a Debian alternative).
// Throws AdapterFailure (KCS_DEVICE_ERROR) when no loaded object holds it.
std::string shared_object_of(const void* symbol);

// A matmul the adapters compute (f32, rank 2 or 3, contiguous, extents
// within the 32-bit dimensions of the LP64 BLAS interfaces); throws
// AdapterFailure, KCS_UNSUPPORTED for anything else.
device::Request checked_matmul(const kcs_op* op, std::string_view adapter);

}  // namespace kcs::blas

// One open instance: the opaque kcs_adapter of the ABI.
struct kcs_adapter {
    std::unique_ptr<kcs::blas::Library> library;
    std::unique_ptr<kcs::device::HostBuffers> buffers = std::make_unique<kcs::device::HostBuffers>();
    kcs::blas::Description description;  // info() strings, valid until close
    std::string last_error;               // about the last failed call; "" before any
};

namespace kcs::blas {

// Computes a checked matmul: one sgemm call per batch index.
void run_matmul(kcs_adapter& adapter, const device::Request& request);

// The backend of device::AbiEntries for a Module (see the top of this file).
template <class Module>
struct Backend {
    using Adapter = kcs_adapter;
    static constexpr const char* kName = Module::kName;

    static std::unique_ptr<kcs_adapter> create(const char* const* options, std::uint32_t option_count) {
        auto adapter = std::make_unique<kcs_adapter>();
        adapter->library = Module::open(parse_options(options, option_count, kName));
        adapter->description = adapter->library->describe();
        return adapter;
    }
    static device::InfoText info_text(const kcs_adapter& adapter) {
        const Description& d = adapter.description;
        return {kName, KCS_ADAPTER_VERSION, d.vendor.c_str(), d.device.c_str(), d.driver_version.c_str(),
                d.notes.c_str()};
    }
    static void supports(kcs_adapter&, const kcs_op* op) { checked_matmul(op, kName); }
    static void run(kcs_adapter& adapter, const kcs_op* op) { run_matmul(adapter, checked_matmul(op, kName)); }
};

}  // namespace kcs::blas
