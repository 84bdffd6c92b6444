// What one small operator call costs at each layer, on the first OpenCL
// device (options from KCS_OPENCL_BENCH_OPTIONS are not read: defaults):
//   Bare:     clSetKernelArg + clEnqueueNDRangeKernel + clFinish of the
//             adapter's own kernel, nothing else
//   Adapter:  the adapter's run() in this process (checks, binding, enqueue,
//             clFinish)
//   Isolated: run() through kcs-worker, as the harness calls it in a case
// Inputs are written once; each iteration is one call. Sizes are small, so
// the figures are the fixed costs the "harness overhead <= 2x" is
// about.
// Beside them, Adapter_Matmul_128x4096x128 and Adapter_Attention_* time the
// compute of the calls that dominate a quick certification
// (register_compute_benchmarks).
#include <benchmark/benchmark.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.hpp"
#include "execution.hpp"
#include "adapter_call_bench.hpp"
#include "op_checks.hpp"
#include "operators.hpp"

namespace {

using namespace kcs::opencl;

using namespace kcs::device::bench;  // kRows, kLength: reduce_sum x [8, 64] -> y [8], f32

// ---- bare OpenCL ---------------------------------------------------------------

struct BareDevice {
    Options options;
    SelectedDevice selected;
    DeviceDescription description;
    Context context;
    Queue queue;
    std::unique_ptr<DeviceBuffers> buffers;
    std::unique_ptr<ProgramLibrary> programs;
    std::unique_ptr<Execution> execution;

    BareDevice() {
        options.cache_dir = default_cache_dir();
        selected = select_device(options);
        description = describe_device(selected);
        cl_int error = CL_SUCCESS;
        context = Context(clCreateContext(nullptr, 1, &selected.device, nullptr, nullptr, &error));
        check_cl(error, "clCreateContext");
        queue = Queue(clCreateCommandQueue(context.get(), selected.device, 0, &error));
        check_cl(error, "clCreateCommandQueue");
        buffers = std::make_unique<DeviceBuffers>(context.get(), queue.get(), description.max_alloc_bytes);
        std::optional<ProgramCache> cache;
        if (options.cache_dir) cache.emplace(*options.cache_dir);
        programs = std::make_unique<ProgramLibrary>(context.get(), selected.device, description, "", std::move(cache));
        execution = std::make_unique<Execution>(context.get(), queue.get(), *buffers, *programs, description, 256);
    }
};

void Bare_ReduceSum(benchmark::State& state) {
    BareDevice device;
    const kcs_buffer x = device.buffers->allocate(kRows * kLength * 4), y = device.buffers->allocate(kRows * 4);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    device.buffers->write(x, 0, ones.data(), ones.size() * 4);
    cl_kernel kernel = device.execution->kernel(Family::reduce, kernel_name("reduce_sum", Dtype::f32, Dtype::f32));
    const std::size_t local = device.execution->reduction_local_size(kernel);
    const BoundTensor bx{device.buffers->memory(x, 0, kRows * kLength * 4), 0}, by{device.buffers->memory(y, 0, kRows * 4), 0};
    for (auto _ : state) {
        device.execution->set_args(kernel, bx, by, cl_ulong{kLength}, LocalFloats{local});
        const std::array<std::size_t, 3> global{kRows * local, 1, 1}, group{local, 1, 1};
        check_cl(clEnqueueNDRangeKernel(device.queue.get(), kernel, 1, nullptr, global.data(), group.data(), 0, nullptr,
                                        nullptr),
                 "enqueue");
        check_cl(clFinish(device.queue.get()), "finish");
    }
}
BENCHMARK(Bare_ReduceSum)->Unit(benchmark::kMicrosecond);

// ---- the adapter in this process -------------------------------------------------

void Adapter_ReduceSum(benchmark::State& state) { adapter_reduce_sum(state, KCS_OPENCL_ADAPTER); }
BENCHMARK(Adapter_ReduceSum)->Unit(benchmark::kMicrosecond);

void Isolated_ReduceSum(benchmark::State& state) { isolated_reduce_sum(state, KCS_OPENCL_ADAPTER); }
BENCHMARK(Isolated_ReduceSum)->Unit(benchmark::kMicrosecond);

// Not overheads: the compute of the calls that dominate a quick certification.
const bool kComputeRegistered = (register_compute_benchmarks(KCS_OPENCL_ADAPTER), true);

}  // namespace
