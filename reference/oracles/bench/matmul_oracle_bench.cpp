// Throughput of the matmul oracle (f64 compensated, exact products) on one
// core: 2*M*N*K flops per problem, reported as GFLOP/s.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/matmul_oracle.hpp"

namespace {

// f32 values in [-1, 1) from a fixed 64-bit LCG: the oracle's fast path.
std::vector<double> f32_operand(std::size_t count, std::uint64_t seed) {
    std::vector<double> values(count);
    for (double& x : values) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const double unit = static_cast<double>(seed >> 11) * 0x1p-53;
        x = kcs::ref::round_to(kcs::ref::Format::f32, 2 * unit - 1);
    }
    return values;
}

void BM_MatmulOracle(benchmark::State& state) {
    const auto size = static_cast<std::size_t>(state.range(0));
    const kcs::ref::MatmulShape shape{.batch = 1, .m = size, .k = size, .n = size};
    const std::vector<double> a = f32_operand(size * size, 1), b = f32_operand(size * size, 2);
    for (auto _ : state) {
        kcs::ref::MatmulResult result = kcs::ref::matmul_oracle(a, b, shape);
        benchmark::DoNotOptimize(result.value.data());
    }
    const double flops = 2.0 * static_cast<double>(size) * static_cast<double>(size) *
                         static_cast<double>(size);
    state.counters["GFLOP/s"] =
        benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_MatmulOracle)->Arg(512)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
