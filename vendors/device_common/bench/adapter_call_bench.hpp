// The layers of one small call that every device adapter's overhead
// benchmark measures the same way, for reduce_sum x [8, 64] -> y [8], f32:
//   adapter_reduce_sum:  the adapter's run() in this process (checks,
//                        binding, launch, wait), loaded from `path`
//   isolated_reduce_sum: run() through kcs-worker, as the harness calls it
// Each adapter's benchmark adds the bare launch + wait of its own kernel.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

namespace kcs::device::bench {

inline constexpr std::int64_t kRows = 8, kLength = 64;

void adapter_reduce_sum(benchmark::State& state, const char* path);
void isolated_reduce_sum(benchmark::State& state, const char* path);

}  // namespace kcs::device::bench
