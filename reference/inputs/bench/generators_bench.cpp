// Throughput of the input generators: one Philox block, and filling a
// tensor from each distribution (elements/s in the "items_per_second"
// column). The normal fill is the expensive one: its ln and cos are
// correctly rounded.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "kcs/reference/fill.hpp"
#include "kcs/reference/philox.hpp"

namespace {

constexpr std::size_t kElements = 1 << 16;

void BM_PhiloxBlock(benchmark::State& state) {
    std::uint64_t index = 0;
    for (auto _ : state) benchmark::DoNotOptimize(kcs::ref::philox_block(0x4B435321, 0, 0, index++));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_PhiloxBlock);

void fill_benchmark(benchmark::State& state, kcs::ref::Format format, const kcs::ref::Distribution& d) {
    std::vector<std::uint32_t> out(kElements);
    std::uint64_t first = 0;
    for (auto _ : state) {
        kcs::ref::fill_bits(format, d, kcs::ref::TensorStream{0x4B435321, 0}, first, out);
        first += kElements;  // fresh elements each time: no branch predictor warmed on one tensor
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kElements));
}

BENCHMARK_CAPTURE(fill_benchmark, normal_f32, kcs::ref::Format::f32, kcs::ref::Normal{0.0, 1.0});
BENCHMARK_CAPTURE(fill_benchmark, normal_bf16, kcs::ref::Format::bf16, kcs::ref::Normal{0.0, 1.0});
BENCHMARK_CAPTURE(fill_benchmark, uniform_f32, kcs::ref::Format::f32, kcs::ref::Uniform{-1.0, 1.0});
BENCHMARK_CAPTURE(fill_benchmark, uniform_f16, kcs::ref::Format::f16, kcs::ref::Uniform{-1.0, 1.0});
BENCHMARK_CAPTURE(fill_benchmark, integers_f32, kcs::ref::Format::f32, kcs::ref::Integers{-1000, 1000});

}  // namespace
