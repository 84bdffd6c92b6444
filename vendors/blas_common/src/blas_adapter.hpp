// The ABI over one CPU BLAS library (vendors/openblas, vendors/blis): what
// the adapters share, so that each of them is only the calls into its
// library. The ABI, buffers and parsing are device_common's host-library
// layer (host_library.hpp); the one operator computed here is matmul on f32
// inputs and an f32 output, every product by the library's own sgemm;
// everything else is KCS_UNSUPPORTED.
//
// An adapter module supplies a Library for each open instance and writes
//   struct Module { static constexpr const char* kName = "NAME";
//                   static std::unique_ptr<kcs::blas::Library> open(const kcs::blas::Options&); };
//   KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::blas::Backend<Module>>::api)
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "host_library.hpp"

namespace kcs::blas {

using host::Description;
using host::shared_object_of;

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

// The options of open(): threads=N, or the library's own default.
struct Options {
    std::optional<int> threads;
};
Options parse_options(const char* const* options, std::uint32_t option_count, std::string_view adapter);

// A BLAS library behind one open instance: it names itself and computes
// one sgemm; the matmul around it (checks, batches, buffers) is here.
class Library : public host::Library {
public:
    virtual void sgemm(const Gemm& gemm) = 0;

    void supports(const device::Request& request) final;
    void run(const device::Request& request, device::HostBuffers& buffers) final;
};

// The backend of device::AbiEntries for a Module (see the top of this file).
template <class Module>
struct Opened {
    static constexpr const char* kName = Module::kName;
    static std::unique_ptr<host::Library> open(const char* const* options, std::uint32_t option_count) {
        return Module::open(parse_options(options, option_count, kName));
    }
};
template <class Module>
using Backend = host::Backend<Opened<Module>>;

}  // namespace kcs::blas
