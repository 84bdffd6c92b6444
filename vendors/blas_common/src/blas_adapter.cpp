#include "blas_adapter.hpp"

#include <limits>
#include <string>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "option_list.hpp"

namespace kcs::blas {

namespace {

constexpr const char* kAccepted = "threads=N";

// The LP64 interfaces (OpenBLAS's cblas, BLIS's BLAS layer) take int dimensions.
constexpr std::int64_t kMaxExtent = std::numeric_limits<std::int32_t>::max();

// A matmul the adapters compute (f32, rank 2 or 3, contiguous, extents
// within the 32-bit dimensions of the LP64 BLAS interfaces); throws
// AdapterFailure, KCS_UNSUPPORTED for anything else.
void check_sgemm(const device::Request& request) {
    if (request.name != "matmul")
        device::unsupported("the adapter computes matmul alone (the library's sgemm), not " + request.name);
    device::check_matmul(request);
    device::check_contiguous(request);
    const Dtype input = request.inputs[0].dtype;
    const Dtype output = request.outputs[0].dtype;
    if (input != Dtype::f32 || output != Dtype::f32)
        device::unsupported("matmul: the adapter computes f32 inputs to an f32 output (sgemm), not " +
                            std::string(name_of(input)) + " -> " + name_of(output));
    for (const auto* list : {&request.inputs, &request.outputs})
        for (const device::TensorRef& t : *list)
            for (const std::int64_t extent : t.shape)
                if (extent > kMaxExtent)
                    device::unsupported("matmul: extent " + std::to_string(extent) +
                                        " is above the 32-bit dimensions of the library's interface");
}

}  // namespace

Options parse_options(const char* const* options, std::uint32_t option_count, std::string_view adapter) {
    Options parsed;
    device::for_each_option(options, option_count, adapter, kAccepted,
                            [&](std::string_view key, const std::string& value) {
                                if (key != "threads") device::unknown_option(key, adapter, kAccepted);
                                parsed.threads = device::parse_threads(value);
                            });
    return parsed;
}

void Library::supports(const device::Request& request) { check_sgemm(request); }

// One sgemm call per batch index.
void Library::run(const device::Request& request, device::HostBuffers& buffers) {
    check_sgemm(request);
    const device::MatmulExtents e = device::matmul_extents(request);
    const auto* a = reinterpret_cast<const float*>(host::tensor_address(buffers, request.inputs[0], "matmul: A"));
    const auto* b = reinterpret_cast<const float*>(host::tensor_address(buffers, request.inputs[1], "matmul: B"));
    auto* c = reinterpret_cast<float*>(host::tensor_address(buffers, request.outputs[0], "matmul: C"));
    const auto m = static_cast<std::int64_t>(e.m), n = static_cast<std::int64_t>(e.n),
               k = static_cast<std::int64_t>(e.k);
    for (std::uint64_t i = 0; i < e.batch; ++i)
        sgemm({m, n, k, a + i * e.m * e.k, b + i * e.k * e.n, c + i * e.m * e.n});
}

}  // namespace kcs::blas
