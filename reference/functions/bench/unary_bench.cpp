// Unary oracle throughput per function: batches of correctly rounded
// results, items_per_second, and the share of items the MPFR fallback
// decided (mpfr_fraction). Three argument sets:
//  f32_bits:      65536 finite f32 patterns uniform over [0, 2^32) (most are
//                 huge or tiny: the overflow, underflow and saturation paths)
//  f32_uniform16: 65536 f32 values uniform in (-16, 16) (the core)
//  f16_all:       all 65536 f16 encodings (the exhaustive sweep)
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kcs/reference/unary_functions.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace {

using kcs::ref::Format;
using kcs::ref::UnaryFunction;

constexpr std::size_t kBatch = 65536;

using kcs::ref::testing::splitmix64;

std::vector<std::uint32_t> f32_bit_patterns() {
    std::vector<std::uint32_t> x;
    std::uint64_t state = 1;
    while (x.size() < kBatch) {
        const auto bits = static_cast<std::uint32_t>(splitmix64(state) >> 32);
        if ((bits & 0x7F80'0000u) != 0x7F80'0000u) x.push_back(bits);
    }
    return x;
}

std::vector<std::uint32_t> f32_uniform16() {
    std::vector<std::uint32_t> x;
    std::uint64_t state = 2;
    while (x.size() < kBatch) {
        const double unit = static_cast<double>(splitmix64(state) >> 11) * 0x1p-53;
        x.push_back(kcs::ref::encode(Format::f32, -16.0 + 32.0 * unit));
    }
    return x;
}

std::vector<std::uint32_t> f16_all() {
    std::vector<std::uint32_t> x(kBatch);
    for (std::uint32_t bits = 0; bits < kBatch; ++bits) x[bits] = bits;
    return x;
}

void run_batch(benchmark::State& state, UnaryFunction function, Format format,
               const std::vector<std::uint32_t>& x) {
    std::vector<std::uint32_t> y(x.size());
    kcs::ref::UnaryBatchStats stats;
    for (auto _ : state) {
        stats += kcs::ref::correctly_rounded_batch(function, format, x, y);
        benchmark::DoNotOptimize(y.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * x.size()));
    state.counters["mpfr_fraction"] =
        stats.total() == 0 ? 0.0 : static_cast<double>(stats.mpfr) / static_cast<double>(stats.total());
}

// Registered from a function so that each argument set is built once.
int register_unary_benchmarks() {
    struct ArgumentSet {
        const char* name;
        Format format;
        std::vector<std::uint32_t> x;
    };
    static const std::vector<ArgumentSet> sets = {
        {"f32_bits", Format::f32, f32_bit_patterns()},
        {"f32_uniform16", Format::f32, f32_uniform16()},
        {"f16_all", Format::f16, f16_all()},
    };
    for (const UnaryFunction function : kcs::ref::kUnaryFunctions) {
        for (const ArgumentSet& set : sets) {
            const std::string name =
                "Unary/" + std::string(kcs::ref::unary_function_name(function)) + "/" + set.name;
            benchmark::RegisterBenchmark(name.c_str(), [function, &set](benchmark::State& state) {
                run_batch(state, function, set.format, set.x);
            })->Unit(benchmark::kMillisecond);
        }
    }
    return 0;
}

const int registered = register_unary_benchmarks();

}  // namespace
