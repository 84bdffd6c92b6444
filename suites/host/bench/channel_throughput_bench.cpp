// How fast bulk data crosses into the worker and back: write then read a
// buffer through IsolatedAdapter (the fixture adapter keeps it in memory).
#include <benchmark/benchmark.h>

#include <vector>

#include "kcs/host/isolated_adapter.hpp"

namespace {

void BM_WriteThenRead(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    kcs::host::IsolatedAdapter adapter(KCS_FIXTURE_ADAPTER);
    std::vector<std::byte> data(bytes, std::byte{0x5a}), back(bytes);
    const auto buffer = adapter.alloc(bytes);
    if (!buffer.ok()) state.SkipWithError(buffer.result.describe().c_str());
    for (auto _ : state) {
        if (!adapter.write(buffer.value, 0, data).ok() || !adapter.read(buffer.value, 0, back).ok())
            state.SkipWithError("transfer failed");
        benchmark::DoNotOptimize(back.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(2 * bytes));
}
BENCHMARK(BM_WriteThenRead)->Arg(4 << 10)->Arg(1 << 20)->Arg(64 << 20)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_EmptyCall(benchmark::State& state) {
    kcs::host::IsolatedAdapter adapter(KCS_FIXTURE_ADAPTER);
    const auto buffer = adapter.alloc(0);
    for (auto _ : state) benchmark::DoNotOptimize(adapter.write(buffer.value, 0, {}));
}
BENCHMARK(BM_EmptyCall)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace
