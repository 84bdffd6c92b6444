// What one matmul costs at each layer on ATen, one thread everywhere (the
// machine's cores would otherwise make the bare call and the worker's
// compete differently), for each size of kMatmulSizes:
//   Bare:     at::matmul on tensors that view host vectors (at::from_blob),
//             the result copied into C, as the adapter calls it
//   Adapter:  the adapter's run() in this process (threads=1), which
//             also checks the call (its probe of ATen is cached)
//   Isolated: run() through kcs-worker, as the harness calls it (threads=1)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using kcs::device::bench::MatmulSize;

void bare(benchmark::State& state, const MatmulSize& s) {
    at::set_num_threads(1);
    std::vector<float> a(static_cast<std::size_t>(s.m * s.k), 1.0f), b(static_cast<std::size_t>(s.k * s.n), 1.0f);
    std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
    const at::Tensor ta = at::from_blob(a.data(), {s.m, s.k}), tb = at::from_blob(b.data(), {s.k, s.n});
    at::Tensor tc = at::from_blob(c.data(), {s.m, s.n});
    for (auto _ : state) {
        tc.copy_(at::matmul(ta, tb));
        benchmark::ClobberMemory();
    }
    if (c[0] != static_cast<float>(s.k)) state.SkipWithError("the bare matmul computed a wrong product");
}

}  // namespace

int main(int argc, char** argv) {
    return kcs::device::bench::run_matmul_benchmarks(argc, argv, bare, KCS_TORCH_ADAPTER, {"threads=1"});
}
