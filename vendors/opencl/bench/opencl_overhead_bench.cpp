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
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <array>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.hpp"
#include "execution.hpp"
#include "kcs/host/isolated_adapter.hpp"
#include "op_checks.hpp"
#include "operators.hpp"

namespace {

using namespace kcs::opencl;

constexpr std::int64_t kRows = 8, kLength = 64;  // reduce_sum x [8, 64] -> y [8], f32

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

kcs_tensor tensor(kcs_buffer buffer, kcs_dtype dtype, std::vector<std::int64_t> shape) {
    kcs_tensor t{};
    t.buffer = buffer;
    t.dtype = dtype;
    t.rank = static_cast<std::uint32_t>(shape.size());
    std::int64_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        t.shape[d] = shape[d];
        t.strides[d] = stride;
        stride *= shape[d];
    }
    return t;
}

void Adapter_ReduceSum(benchmark::State& state) {
    void* library = dlopen(KCS_OPENCL_ADAPTER, RTLD_NOW | RTLD_LOCAL);
    if (!library) throw std::runtime_error(dlerror());
    const auto entry = reinterpret_cast<kcs_adapter_entry_fn>(dlsym(library, KCS_ADAPTER_ENTRY_SYMBOL));
    const kcs_adapter_api& api = *entry(KCS_ADAPTER_ABI_VERSION);
    kcs_adapter* adapter = nullptr;
    if (api.open(nullptr, 0, &adapter) != KCS_OK) throw std::runtime_error(api.last_error(nullptr));
    kcs_buffer x = 0, y = 0;
    api.alloc(adapter, kRows * kLength * 4, &x);
    api.alloc(adapter, kRows * 4, &y);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    api.write(adapter, x, 0, ones.data(), ones.size() * 4);
    const kcs_tensor in = tensor(x, KCS_DTYPE_F32, {kRows, kLength}), out = tensor(y, KCS_DTYPE_F32, {kRows});
    kcs_op op{};
    op.struct_size = sizeof op;
    op.name = "reduce_sum";
    op.accumulate = KCS_DTYPE_F32;
    op.input_count = 1;
    op.inputs = &in;
    op.output_count = 1;
    op.outputs = &out;
    for (auto _ : state)
        if (api.run(adapter, &op) != KCS_OK) state.SkipWithError(api.last_error(adapter));
    api.close(adapter);
    dlclose(library);
}
BENCHMARK(Adapter_ReduceSum)->Unit(benchmark::kMicrosecond);

// ---- through kcs-worker, as the harness calls it ----------------------------------

void Isolated_ReduceSum(benchmark::State& state) {
    kcs::host::IsolatedAdapter adapter(KCS_OPENCL_ADAPTER);
    const auto x = adapter.alloc(kRows * kLength * 4), y = adapter.alloc(kRows * 4);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    adapter.write(x.value, 0, std::as_bytes(std::span(ones)));
    kcs::host::Operation op;
    op.name = "reduce_sum";
    op.accumulate = KCS_DTYPE_F32;
    op.inputs.push_back({x.value, 0, KCS_DTYPE_F32, {kRows, kLength}, {}});
    op.outputs.push_back({y.value, 0, KCS_DTYPE_F32, {kRows}, {}});
    for (auto _ : state)
        if (!adapter.run(op).ok()) state.SkipWithError("run failed");
}
BENCHMARK(Isolated_ReduceSum)->Unit(benchmark::kMicrosecond);

}  // namespace
