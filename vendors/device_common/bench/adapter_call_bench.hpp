// The layers of one call that every adapter's overhead benchmark measures
// the same way, for an operator call on f32 tensors (F32Call):
//   adapter_run:  the adapter's run() in this process (checks, binding,
//                 launch, wait), loaded from `path`
//   isolated_run: run() through kcs-worker, as the harness calls it
// Each adapter's benchmark adds the bare call of its own kernel or library.
// The device adapters time one small reduce_sum (adapter_reduce_sum,
// isolated_reduce_sum); the host library adapters time matmul over a range
// of sizes (register_matmul_benchmarks).
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kcs::device::bench {

// One operator call: the catalog's operator, its f32 inputs and outputs by
// shape (row-major, contiguous), each input filled with ones.
struct F32Call {
    std::string name;
    std::vector<std::vector<std::int64_t>> inputs;
    std::vector<std::vector<std::int64_t>> outputs;
};

inline constexpr std::int64_t kRows = 8, kLength = 64;
F32Call reduce_sum_call();  // x [kRows, kLength] -> y [kRows]
F32Call matmul_call(std::int64_t m, std::int64_t n, std::int64_t k);  // A [m, k] x B [k, n] -> C [m, n]
F32Call attention_call(std::int64_t s, std::int64_t t, std::int64_t d);  // Q [s, d], K [t, d], V [t, d] -> O [s, d]

// `options` are the adapter's open() options ("threads=1").
void adapter_run(benchmark::State& state, const char* path, const F32Call& call,
                 const std::vector<std::string>& options = {});
void isolated_run(benchmark::State& state, const char* path, const F32Call& call,
                  const std::vector<std::string>& options = {});

inline void adapter_reduce_sum(benchmark::State& state, const char* path) { adapter_run(state, path, reduce_sum_call()); }
inline void isolated_reduce_sum(benchmark::State& state, const char* path) { isolated_run(state, path, reduce_sum_call()); }

// Registers the compute of the device calls that dominate a quick
// certification (not overheads): C-ORD-02's largest matmul, [M, K, N] =
// [128, 4096, 128], its attentions [S, T, D] = [16, 4096, 64] and
// [1, 16384, 16] and its softmax [128, 4096], as
// Adapter_Matmul_128x4096x128 ... (milliseconds).
void register_compute_benchmarks(const char* adapter_path);

// The matmul sizes M x N x K of the host library benchmarks: from a few
// rows, where the fixed cost of a call dominates, to where the product does.
struct MatmulSize {
    std::int64_t m, n, k;
};
inline constexpr MatmulSize kMatmulSizes[] = {{8, 64, 64}, {64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512}};

// The library's own call of C = A B (row-major f32, alpha 1, beta 0, A and
// B filled with ones), set up once outside the timed loop, one product per
// iteration.
using BareMatmul = void (*)(benchmark::State& state, const MatmulSize& size);

// Registers, for each of kMatmulSizes, Bare/MxNxK, Adapter/MxNxK and
// Isolated/MxNxK (microseconds), the adapter opened with `options`.
void register_matmul_benchmarks(BareMatmul bare, const char* adapter_path, const std::vector<std::string>& options);

// A host library benchmark's main(): registers the matmul benchmarks as
// above and runs them with Google Benchmark's command line.
int run_matmul_benchmarks(int argc, char** argv, BareMatmul bare, const char* adapter_path,
                          const std::vector<std::string>& options);

}  // namespace kcs::device::bench
