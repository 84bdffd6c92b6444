// What one small operator call costs at each layer, on CUDA device 0 with
// the default options:
//   Bare:     cudaLaunchKernel + cudaDeviceSynchronize of the adapter's own
//             reduce_sum kernel, nothing else
//   Adapter:  the adapter's run() in this process (checks, binding, launch,
//             synchronize)
//   Isolated: run() through kcs-worker, as the harness calls it in a case
// Inputs are written once; each iteration is one call. Sizes are small, so
// the figures are the fixed costs of the issue's "per-call overhead
// through the worker <= 2x a bare launch + synchronize".
#include <benchmark/benchmark.h>

#include <vector>

#include "adapter_call_bench.hpp"
#include "adapter_failure.hpp"
#include "compiler.hpp"
#include "cuda_device.hpp"
#include "execution.hpp"
#include "modules.hpp"

namespace {

using namespace kcs::cuda;
using namespace kcs::device::bench;  // kRows, kLength: reduce_sum x [8, 64] -> y [8], f32

void bare_reduce_sum(benchmark::State& state) {
    const DeviceDescription device = open_device(0);
    ModuleLibrary modules("sm_" + std::to_string(device.major) + std::to_string(device.minor), FloatControls{},
                          cuda_include_dir(""));
    DeviceBuffers buffers(device.index);
    Execution execution(modules, buffers, kDefaultLocalSize);
    const kcs_buffer x = buffers.allocate(kRows * kLength * 4), y = buffers.allocate(kRows * 4);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    buffers.write(x, 0, ones.data(), ones.size() * 4);
    const cudaKernel_t kernel =
        execution.kernel(Family::reduce, name_expression("reduce_sum", kcs::Dtype::f32, kcs::Dtype::f32));
    const unsigned local = execution.reduction_local_size(kernel);
    const kcs::device::TensorRef tx{x, 0, kcs::Dtype::f32, {kRows, kLength}, {}}, ty{y, 0, kcs::Dtype::f32, {kRows}, {}};
    const void* bx = buffers.bind(tx, "x");
    const void* by = buffers.bind(ty, "y");
    const unsigned long long length = kLength;
    void* arguments[] = {&bx, &by, const_cast<unsigned long long*>(&length)};
    for (auto _ : state) {
        check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(kRows), dim3(local), arguments,
                                    local * sizeof(float), nullptr),
                   "cudaLaunchKernel");
        check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
}
void Bare_ReduceSum(benchmark::State& state) {
    try {
        bare_reduce_sum(state);
    } catch (const kcs::device::AdapterFailure& failure) {
        state.SkipWithError(failure.what());  // no CUDA device, most often
    }
}
BENCHMARK(Bare_ReduceSum)->Unit(benchmark::kMicrosecond);

void Adapter_ReduceSum(benchmark::State& state) { adapter_reduce_sum(state, KCS_CUDA_ADAPTER); }
BENCHMARK(Adapter_ReduceSum)->Unit(benchmark::kMicrosecond);

void Isolated_ReduceSum(benchmark::State& state) { isolated_reduce_sum(state, KCS_CUDA_ADAPTER); }
BENCHMARK(Isolated_ReduceSum)->Unit(benchmark::kMicrosecond);

}  // namespace
