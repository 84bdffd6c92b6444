// Throughput of the batch conversions. The input spreads over every f32
// class (normals of every magnitude, subnormals, zeros, inf, NaN) so that
// the figure is not that of one branch: the encoding patterns come from a
// fixed splitmix64 sequence over all 2^32 bit patterns.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace {

constexpr std::size_t kBatch = 1 << 16;  // 256 KiB of f32: stays in L2, measures the conversion

using kcs::ref::testing::splitmix64;

std::vector<float> random_f32_patterns() {
    std::vector<float> values(kBatch);
    std::uint64_t state = 0x4B435321;  // fixed seed: same data every run
    for (float& v : values) v = std::bit_cast<float>(static_cast<std::uint32_t>(splitmix64(state)));
    return values;
}

void encode_benchmark(benchmark::State& state,
                      void (*convert)(const float*, std::uint16_t*, std::size_t, kcs::ref::Rounding),
                      kcs::ref::Rounding rounding) {
    const std::vector<float> in = random_f32_patterns();
    std::vector<std::uint16_t> out(in.size());
    for (auto _ : state) {
        convert(in.data(), out.data(), in.size(), rounding);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}

void decode_benchmark(benchmark::State& state, void (*convert)(const std::uint16_t*, float*, std::size_t)) {
    std::vector<std::uint16_t> in(kBatch);
    std::uint64_t seed = 0x4B435322;
    for (auto& h : in) h = static_cast<std::uint16_t>(splitmix64(seed));
    std::vector<float> out(in.size());
    for (auto _ : state) {
        convert(in.data(), out.data(), in.size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}

using kcs::ref::Rounding;
using EncodeBatch = void (*)(const float*, std::uint16_t*, std::size_t, Rounding);
using DecodeBatch = void (*)(const std::uint16_t*, float*, std::size_t);

void register_benchmarks() {
    const auto to_f16 = static_cast<EncodeBatch>(kcs::ref::f32_to_f16);
    const auto to_bf16 = static_cast<EncodeBatch>(kcs::ref::f32_to_bf16);
    benchmark::RegisterBenchmark("EncodeF16/nearest_even", encode_benchmark, to_f16, Rounding::nearest_even);
    benchmark::RegisterBenchmark("EncodeF16/toward_zero", encode_benchmark, to_f16, Rounding::toward_zero);
    benchmark::RegisterBenchmark("EncodeBf16/nearest_even", encode_benchmark, to_bf16, Rounding::nearest_even);
    benchmark::RegisterBenchmark("EncodeBf16/truncate", encode_benchmark, to_bf16, Rounding::truncate);
    benchmark::RegisterBenchmark("DecodeF16", decode_benchmark, static_cast<DecodeBatch>(kcs::ref::f16_to_f32));
    benchmark::RegisterBenchmark("DecodeBf16", decode_benchmark, static_cast<DecodeBatch>(kcs::ref::bf16_to_f32));
}

// Registration at load time, as BENCHMARK() does; the result is unused.
[[maybe_unused]] const bool kRegistered = (register_benchmarks(), true);

}  // namespace
