// One chunk of an exhaustive unary sweep (2^23 f32 inputs, 32 MiB per
// tensor) through GuardedDevice::run on reference-cpu, as the sweeps run
// it: the same buffers every chunk, fresh inputs. The counters split a
// chunk's time into the adapter's calls (adapter_ms: alloc, write, run,
// read, each including its trip through the worker) and the rest
// (harness_ms: images, canaries, checks, copying the outputs out). BM_Memcpy
// is the yardstick: one copy of one tensor.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kcs/harness/guarded_device.hpp"
#include "kcs/host/adapter_search.hpp"

namespace {

using kcs::harness::GuardedDevice;
using kcs::harness::HostTensor;
using kcs::harness::Invocation;

constexpr std::int64_t kChunk = std::int64_t{1} << 23;

// Chunk `index` of the sweep: the f32 bit patterns index * 2^23 + i.
HostTensor sweep_chunk(std::uint32_t index) {
    HostTensor t = HostTensor::zeros(KCS_DTYPE_F32, {kChunk});
    for (std::int64_t i = 0; i < kChunk; ++i) {
        const std::uint32_t bits = index * static_cast<std::uint32_t>(kChunk) + static_cast<std::uint32_t>(i);
        std::memcpy(t.bytes.data() + 4 * i, &bits, 4);
    }
    return t;
}

void run_chunks(benchmark::State& state, Invocation invocation) {
    kcs::host::IsolatedAdapter adapter(kcs::host::resolve_adapter("reference-cpu"));
    GuardedDevice device(adapter, 1);
    double adapter_seconds = 0, run_seconds = 0;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        const auto run = device.run(invocation);
        run_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!run.call.ok() || !run.breaches.empty() || run.outputs.size() != 1) {
            state.SkipWithError(run.call.ok() ? "breach" : run.call.describe().c_str());
            break;
        }
        adapter_seconds += std::chrono::duration<double>(run.adapter_time).count();
        benchmark::DoNotOptimize(run.outputs[0].bytes.data());
    }
    const auto n = static_cast<double>(state.iterations());
    state.counters["adapter_ms"] = 1e3 * adapter_seconds / n;
    state.counters["harness_ms"] = 1e3 * (run_seconds - adapter_seconds) / n;
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * invocation.inputs[0].bytes.size()));
}

void BM_GuardedUnaryExp(benchmark::State& state) {
    Invocation exp{"unary", "exp", 0, {}, {sweep_chunk(0x3f0)}, {{KCS_DTYPE_F32, {kChunk}}}};
    run_chunks(state, std::move(exp));
}
BENCHMARK(BM_GuardedUnaryExp)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);

void BM_GuardedCastF32F16(benchmark::State& state) {
    Invocation cast{"cast", std::nullopt, 0, {}, {sweep_chunk(0x3f0)}, {{KCS_DTYPE_F16, {kChunk}}}};
    run_chunks(state, std::move(cast));
}
BENCHMARK(BM_GuardedCastF32F16)->UseRealTime()->Unit(benchmark::kMillisecond)->MinTime(2);

// The fixed cost of one guarded run: a 3-tensor call whose data is tiny
// (an elementwise add of 64 f32), so the time is the protocol's trips
// through the worker and the harness's bookkeeping, not the kernel.
void BM_GuardedTinyAdd(benchmark::State& state) {
    Invocation add{"elementwise", "add", 0, {}, {sweep_chunk(0x3f0), sweep_chunk(0x3f1)}, {{KCS_DTYPE_F32, {64}}}};
    for (auto& input : add.inputs) {
        input.shape = {64};
        input.bytes.resize(64 * 4);
    }
    run_chunks(state, std::move(add));
}
BENCHMARK(BM_GuardedTinyAdd)->UseRealTime()->Unit(benchmark::kMicrosecond)->MinTime(2);

void BM_Memcpy32MiB(benchmark::State& state) {
    std::vector<std::byte> from(kChunk * 4, std::byte{0x5a}), to(kChunk * 4);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), from.size());
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * kChunk * 4);
}
BENCHMARK(BM_Memcpy32MiB)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
