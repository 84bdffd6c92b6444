#include "blas_adapter.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <limits>
#include <system_error>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "option_list.hpp"

namespace kcs::blas {

namespace {

constexpr const char* kAccepted = "threads=N";

// The LP64 interfaces (OpenBLAS's cblas, BLIS's BLAS layer) take int dimensions.
constexpr std::int64_t kMaxExtent = std::numeric_limits<std::int32_t>::max();

// The f32 elements of a checked tensor, in host memory.
template <class T>
T* elements_of(device::HostBuffers& buffers, const device::TensorRef& tensor, const char* name) {
    const std::string what = std::string("matmul: ") + name;
    if (tensor.offset % sizeof(float) != 0)
        device::invalid(what + ": offset " + std::to_string(tensor.offset) + " is not a multiple of 4 bytes");
    try {
        return reinterpret_cast<T*>(buffers.locate(tensor.buffer, tensor.offset, tensor.elements() * sizeof(float)));
    } catch (const device::AdapterFailure& e) {
        device::invalid(what + ": " + e.what());
    }
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

std::string shared_object_of(const void* symbol) {
    Dl_info info{};
    if (::dladdr(symbol, &info) == 0 || !info.dli_fname || !*info.dli_fname)
        device::fail(KCS_DEVICE_ERROR, "dladdr finds no shared object that holds the library's symbol");
    std::string path = info.dli_fname;
    std::error_code error;
    const std::filesystem::path resolved = std::filesystem::canonical(path, error);
    if (!error && resolved.string() != path) path += " -> " + resolved.string();
    return path;
}

device::Request checked_matmul(const kcs_op* op, std::string_view adapter) {
    device::Request request = device::parse_request(op);
    const std::string name(adapter);
    if (request.name != "matmul")
        device::unsupported(name + " computes matmul alone (the library's sgemm), not " + request.name);
    device::check_matmul(request);
    device::check_contiguous(request);
    const Dtype input = request.inputs[0].dtype;
    const Dtype output = request.outputs[0].dtype;
    if (input != Dtype::f32 || output != Dtype::f32)
        device::unsupported("matmul: " + name + " computes f32 inputs to an f32 output (sgemm), not " +
                            name_of(input) + " -> " + name_of(output));
    for (const auto* list : {&request.inputs, &request.outputs})
        for (const device::TensorRef& t : *list)
            for (const std::int64_t extent : t.shape)
                if (extent > kMaxExtent)
                    device::unsupported("matmul: extent " + std::to_string(extent) +
                                        " is above the 32-bit dimensions of the library's interface");
    return request;
}

void run_matmul(kcs_adapter& adapter, const device::Request& request) {
    const device::MatmulExtents e = device::matmul_extents(request);
    const float* a = elements_of<const float>(*adapter.buffers, request.inputs[0], "A");
    const float* b = elements_of<const float>(*adapter.buffers, request.inputs[1], "B");
    float* c = elements_of<float>(*adapter.buffers, request.outputs[0], "C");
    const auto m = static_cast<std::int64_t>(e.m), n = static_cast<std::int64_t>(e.n),
               k = static_cast<std::int64_t>(e.k);
    for (std::uint64_t i = 0; i < e.batch; ++i)
        adapter.library->sgemm({m, n, k, a + i * e.m * e.k, b + i * e.k * e.n, c + i * e.m * e.n});
}

}  // namespace kcs::blas
