#include "adapter_call_bench.hpp"

#include <kcs/adapter.h>

#include <span>
#include <stdexcept>
#include <utility>

#include "kcs/host/isolated_adapter.hpp"
#include "loaded_adapter.hpp"

namespace kcs::device::bench {

namespace {

std::uint64_t elements(const std::vector<std::int64_t>& shape) {
    std::uint64_t count = 1;
    for (const std::int64_t extent : shape) count *= static_cast<std::uint64_t>(extent);
    return count;
}

kcs_tensor tensor(kcs_buffer buffer, const std::vector<std::int64_t>& shape) {
    kcs_tensor t{};
    t.buffer = buffer;
    t.dtype = KCS_DTYPE_F32;
    t.rank = static_cast<std::uint32_t>(shape.size());
    std::int64_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        t.shape[d] = shape[d];
        t.strides[d] = stride;
        stride *= shape[d];
    }
    return t;
}

}  // namespace

F32Call reduce_sum_call() { return {"reduce_sum", {{kRows, kLength}}, {{kRows}}}; }
F32Call matmul_call(std::int64_t m, std::int64_t n, std::int64_t k) { return {"matmul", {{m, k}, {k, n}}, {{m, n}}}; }
F32Call attention_call(std::int64_t s, std::int64_t t, std::int64_t d) {
    return {"attention", {{s, d}, {t, d}, {t, d}}, {{s, d}}};
}

void adapter_run(benchmark::State& state, const char* path, const F32Call& call,
                 const std::vector<std::string>& options) {
    LoadedAdapter loaded(path, options);
    std::vector<kcs_tensor> inputs, outputs;
    for (const auto& shape : call.inputs) inputs.push_back(tensor(loaded.filled(elements(shape), 1.0f), shape));
    for (const auto& shape : call.outputs) outputs.push_back(tensor(loaded.filled(elements(shape), 0.0f), shape));
    kcs_op op{};
    op.struct_size = sizeof op;
    op.name = call.name.c_str();
    op.accumulate = KCS_DTYPE_F32;
    op.input_count = static_cast<std::uint32_t>(inputs.size());
    op.inputs = inputs.data();
    op.output_count = static_cast<std::uint32_t>(outputs.size());
    op.outputs = outputs.data();
    op.attribute_size = sizeof(kcs_attribute);
    op.tensor_size = sizeof(kcs_tensor);
    for (auto _ : state)
        if (loaded.api().run(loaded.adapter(), &op) != KCS_OK) state.SkipWithError(loaded.api().last_error(loaded.adapter()));
}

void isolated_run(benchmark::State& state, const char* path, const F32Call& call,
                  const std::vector<std::string>& options) {
    kcs::host::IsolationOptions isolation;
    isolation.adapter_options = options;
    kcs::host::IsolatedAdapter adapter(path, isolation);
    kcs::host::Operation op;
    op.name = call.name;
    op.accumulate = KCS_DTYPE_F32;
    const auto add = [&](std::vector<kcs::host::Tensor>& to, const std::vector<std::int64_t>& shape, float value) {
        const auto buffer = adapter.alloc(elements(shape) * 4);
        const std::vector<float> values(elements(shape), value);
        adapter.write(buffer.value, 0, std::as_bytes(std::span(values)));
        to.push_back({buffer.value, 0, KCS_DTYPE_F32, shape, {}});
    };
    for (const auto& shape : call.inputs) add(op.inputs, shape, 1.0f);
    for (const auto& shape : call.outputs) add(op.outputs, shape, 0.0f);
    for (auto _ : state)
        if (!adapter.run(op).ok()) state.SkipWithError("run failed");
}

void register_compute_benchmarks(const char* adapter_path) {
    const std::pair<const char*, F32Call> calls[] = {
        {"Adapter_Matmul_128x4096x128", matmul_call(128, 128, 4096)},
        {"Adapter_Attention_16x4096x64", attention_call(16, 4096, 64)},
        {"Adapter_Attention_1x16384x16", attention_call(1, 16384, 16)},
        {"Adapter_Attention_1024x128x256", attention_call(1024, 128, 256)},  // C-ORD-03's largest batch
        {"Adapter_Softmax_128x4096", F32Call{"softmax", {{128, 4096}}, {{128, 4096}}}}};
    for (const auto& [name, call] : calls)
        benchmark::RegisterBenchmark(name, [=](benchmark::State& s) { adapter_run(s, adapter_path, call); })
            ->Unit(benchmark::kMillisecond);
}

void register_matmul_benchmarks(BareMatmul bare, const char* adapter_path, const std::vector<std::string>& options) {
    for (const MatmulSize& size : kMatmulSizes) {
        // "Bare/8x64x64": appended piece by piece, since GCC 12 warns
        // (-Wrestrict, a false positive) on chains of operator+ with literals.
        const auto named = [&](const char* layer) {
            std::string name(layer);
            name.append("/").append(std::to_string(size.m)).append("x").append(std::to_string(size.n));
            return name.append("x").append(std::to_string(size.k));
        };
        const F32Call call = matmul_call(size.m, size.n, size.k);
        benchmark::RegisterBenchmark(named("Bare").c_str(), [=](benchmark::State& s) { bare(s, size); })
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(named("Adapter").c_str(),
                                     [=](benchmark::State& s) { adapter_run(s, adapter_path, call, options); })
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(named("Isolated").c_str(),
                                     [=](benchmark::State& s) { isolated_run(s, adapter_path, call, options); })
            ->Unit(benchmark::kMicrosecond);
    }
}

int run_matmul_benchmarks(int argc, char** argv, BareMatmul bare, const char* adapter_path,
                          const std::vector<std::string>& options) {
    register_matmul_benchmarks(bare, adapter_path, options);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace kcs::device::bench
