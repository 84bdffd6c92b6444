// What one matmul costs at each layer on CLBlast, on the first OpenCL
// device (PoCL here), for each size of kMatmulSizes:
//   Bare:     clblast::Gemm<float> on device buffers written once, and the
//             wait for the queue, as the adapter calls it (row-major,
//             alpha 1, beta 0)
//   Adapter:  the adapter's run() in this process (default options)
//   Isolated: run() through kcs-worker, as the harness calls it
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast.h>

#include <stdexcept>
#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using kcs::device::bench::MatmulSize;

struct Device {
    cl_device_id id = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;

    Device() {
        cl_platform_id platform = nullptr;
        if (clGetPlatformIDs(1, &platform, nullptr) != CL_SUCCESS ||
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &id, nullptr) != CL_SUCCESS)
            throw std::runtime_error("no OpenCL device");
        cl_int error = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &id, nullptr, nullptr, &error);
        queue = clCreateCommandQueue(context, id, 0, &error);
        if (error != CL_SUCCESS) throw std::runtime_error("no OpenCL queue");
    }
    ~Device() {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    cl_mem buffer(const std::vector<float>& values) const {
        cl_int error = CL_SUCCESS;
        cl_mem memory = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, values.size() * 4,
                                       const_cast<float*>(values.data()), &error);
        if (error != CL_SUCCESS) throw std::runtime_error("clCreateBuffer");
        return memory;
    }
};

void bare(benchmark::State& state, const MatmulSize& s) {
    static Device device;
    const auto m = static_cast<std::size_t>(s.m), n = static_cast<std::size_t>(s.n), k = static_cast<std::size_t>(s.k);
    cl_mem a = device.buffer(std::vector<float>(m * k, 1.0f)), b = device.buffer(std::vector<float>(k * n, 1.0f)),
           c = device.buffer(std::vector<float>(m * n, 0.0f));
    cl_command_queue queue = device.queue;
    for (auto _ : state) {
        if (clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, m, n,
                                 k, 1.0f, a, 0, k, b, 0, n, 0.0f, c, 0, n, &queue) != clblast::StatusCode::kSuccess)
            state.SkipWithError("clblast::Gemm failed");
        clFinish(queue);
    }
    float first = 0;
    clEnqueueReadBuffer(queue, c, CL_TRUE, 0, 4, &first, 0, nullptr, nullptr);
    if (first != static_cast<float>(k)) state.SkipWithError("the bare clblast::Gemm computed a wrong product");
    for (cl_mem memory : {a, b, c}) clReleaseMemObject(memory);
}

}  // namespace

int main(int argc, char** argv) {
    return kcs::device::bench::run_matmul_benchmarks(argc, argv, bare, KCS_CLBLAST_ADAPTER, {});
}
