#include "gemm.hpp"

// After gemm.hpp: vendors/opencl's failure.hpp fixes the OpenCL version
// before CL/cl.h is first included.
#include <clblast.h>
#include <clblast_half.h>

#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "op_checks.hpp"
#include "operator_checks.hpp"

namespace kcs::clblast_adapter {

namespace {

using ::clblast::Precision;
using ::clblast::StatusCode;

// From 2^21 up the direct kernel's threshold (2^63) exceeds every m*n*k a
// buffer can hold.
constexpr std::size_t kAlwaysDirect = std::size_t{1} << 21;

const char* clblast_status_name(StatusCode status) {
    switch (status) {
        case StatusCode::kNotImplemented: return "kNotImplemented";
        case StatusCode::kInvalidMatrixA: return "kInvalidMatrixA";
        case StatusCode::kInvalidMatrixB: return "kInvalidMatrixB";
        case StatusCode::kInvalidMatrixC: return "kInvalidMatrixC";
        case StatusCode::kInvalidDimension: return "kInvalidDimension";
        case StatusCode::kInvalidLeadDimA: return "kInvalidLeadDimA";
        case StatusCode::kInvalidLeadDimB: return "kInvalidLeadDimB";
        case StatusCode::kInvalidLeadDimC: return "kInvalidLeadDimC";
        case StatusCode::kInsufficientMemoryA: return "kInsufficientMemoryA";
        case StatusCode::kInsufficientMemoryB: return "kInsufficientMemoryB";
        case StatusCode::kInsufficientMemoryC: return "kInsufficientMemoryC";
        case StatusCode::kInsufficientMemoryTemp: return "kInsufficientMemoryTemp";
        case StatusCode::kInvalidBatchCount: return "kInvalidBatchCount";
        case StatusCode::kInvalidOverrideKernel: return "kInvalidOverrideKernel";
        case StatusCode::kMissingOverrideParameter: return "kMissingOverrideParameter";
        case StatusCode::kInvalidLocalMemUsage: return "kInvalidLocalMemUsage";
        case StatusCode::kNoHalfPrecision: return "kNoHalfPrecision";
        case StatusCode::kDatabaseError: return "kDatabaseError";
        case StatusCode::kUnknownError: return "kUnknownError";
        case StatusCode::kUnexpectedError: return "kUnexpectedError";
        default: return "CLBlast status";
    }
}

// OpenCL's own codes (above -1000) are told and classified as the opencl
// adapter does (out of memory or a device error); CLBlast's are device errors.
void check_status(StatusCode status, const std::string& what) {
    if (status == StatusCode::kSuccess) return;
    const int code = static_cast<int>(status);
    const std::string call = what + " (CLBlast)";
    if (code > -1000) opencl::check_cl(code, call.c_str());
    device::fail(KCS_DEVICE_ERROR, call + ": " + clblast_status_name(status) + " (" + std::to_string(code) + ")");
}

std::string parameter_text(cl_device_id device, const std::string& kernel, Precision precision) {
    std::unordered_map<std::string, std::size_t> parameters;
    check_status(::clblast::RetrieveParameters(device, kernel, precision, parameters), "RetrieveParameters " + kernel);
    const std::map<std::string, std::size_t> sorted(parameters.begin(), parameters.end());
    std::string text;
    for (const auto& [name, value] : sorted) text.append(text.empty() ? "" : " ").append(name + "=" + std::to_string(value));
    return text;
}

std::size_t min_indirect_size(cl_device_id device, Precision precision) {
    std::unordered_map<std::string, std::size_t> parameters;
    check_status(::clblast::RetrieveParameters(device, "GemmRoutine", precision, parameters),
                 "RetrieveParameters GemmRoutine");
    return parameters.at("XGEMM_MIN_INDIRECT_SIZE");
}

// CLBlast's own threshold per device and precision, read before this
// process overrode it: an instance opened later with gemm_kernel=auto
// restores it.
std::size_t library_min_indirect_size(cl_device_id device, Precision precision) {
    static std::mutex mutex;
    static std::map<std::pair<cl_device_id, Precision>, std::size_t> originals;
    const std::lock_guard lock(mutex);
    const auto key = std::make_pair(device, precision);
    const auto found = originals.find(key);
    if (found != originals.end()) return found->second;
    return originals[key] = min_indirect_size(device, precision);
}

struct Product {
    std::size_t batch, m, n, k;
    opencl::BoundTensor a, b, c;
};

template <typename T>
StatusCode gemm(const Product& p, bool batched, T one, T zero, cl_command_queue* queue) {
    using ::clblast::Layout;
    using ::clblast::Transpose;
    if (!batched)
        return ::clblast::Gemm<T>(Layout::kRowMajor, Transpose::kNo, Transpose::kNo, p.m, p.n, p.k, one, p.a.memory,
                                  p.a.at, p.k, p.b.memory, p.b.at, p.n, zero, p.c.memory, p.c.at, p.n, queue);
    return ::clblast::GemmStridedBatched<T>(Layout::kRowMajor, Transpose::kNo, Transpose::kNo, p.m, p.n, p.k, one,
                                            p.a.memory, p.a.at, p.k, p.m * p.k, p.b.memory, p.b.at, p.n, p.k * p.n,
                                            zero, p.c.memory, p.c.at, p.n, p.m * p.n, p.batch, queue);
}

}  // namespace

GemmTuning tune_gemm(cl_device_id device, GemmKernel kernel) {
    GemmTuning tuning;
    for (const Precision precision : {Precision::kSingle, Precision::kHalf}) {
        const std::size_t library = library_min_indirect_size(device, precision);
        const std::size_t wanted = kernel == GemmKernel::direct     ? kAlwaysDirect
                                   : kernel == GemmKernel::indirect ? 0
                                                                    : library;
        check_status(::clblast::OverrideParameters(device, "GemmRoutine", precision,
                                                   {{"XGEMM_MIN_INDIRECT_SIZE", wanted}}),
                     "OverrideParameters GemmRoutine");
        if (precision == Precision::kSingle) {
            tuning.library_min_indirect_size = library;
            tuning.min_indirect_size = min_indirect_size(device, precision);
        }
    }
    tuning.xgemm = parameter_text(device, "Xgemm", Precision::kSingle);
    tuning.xgemm_direct = parameter_text(device, "XgemmDirect", Precision::kSingle);
    return tuning;
}

void check_gemm(const device::Request& request, const opencl::DeviceDescription& device) {
    if (request.name != "matmul")
        device::unsupported("the adapter computes matmul alone (CLBlast's GEMM), not " + request.name);
    device::check_matmul(request);
    device::check_contiguous(request);
    const Dtype input = request.inputs[0].dtype, output = request.outputs[0].dtype;
    const std::string config = std::string(name_of(input)) + " -> " + name_of(output);
    if (input == Dtype::f16 && output == Dtype::f16) {
        if (!device.has_fp16)
            device::unsupported("matmul " + config + ": CLBlast's HGEMM needs cl_khr_fp16, which " + device.name +
                                " does not offer");
    } else if (input != Dtype::f32 || output != Dtype::f32) {
        device::unsupported("matmul " + config +
                            ": CLBlast's GEMM writes its inputs' type, f32 (SGEMM) or f16 (HGEMM), and has no bf16");
    }
    const device::MatmulExtents e = device::matmul_extents(request);
    if (e.batch == 0 || e.m == 0 || e.n == 0 || e.k == 0)
        device::unsupported("matmul: CLBlast's GEMM requires m, n, k and the batch count to be at least 1 "
                            "(kInvalidDimension, kInvalidBatchCount); here batch " +
                            std::to_string(e.batch) + ", m " + std::to_string(e.m) + ", n " + std::to_string(e.n) +
                            ", k " + std::to_string(e.k));
}

void run_gemm(const device::Request& request, opencl::DeviceBuffers& buffers, cl_command_queue queue) {
    const device::MatmulExtents e = device::matmul_extents(request);
    const Product product{e.batch,
                          e.m,
                          e.n,
                          e.k,
                          buffers.bind(request.inputs[0], "matmul: A"),
                          buffers.bind(request.inputs[1], "matmul: B"),
                          buffers.bind(request.outputs[0], "matmul: C")};
    const bool batched = request.inputs[0].shape.size() == 3;
    const StatusCode status =
        request.inputs[0].dtype == Dtype::f16
            ? gemm<half>(product, batched, FloatToHalf(1.0f), FloatToHalf(0.0f), &queue)
            : gemm<float>(product, batched, 1.0f, 0.0f, &queue);
    check_status(status, batched ? "GemmStridedBatched" : "Gemm");
}

}  // namespace kcs::clblast_adapter
