// What one matmul costs at each layer on OpenBLAS, one thread everywhere
// (the machine's cores would otherwise make the bare call and the worker's
// compete differently), for each size of kMatmulSizes:
//   Bare:     cblas_sgemm, row-major, alpha 1, beta 0, as the adapter calls it
//   Adapter:  the adapter's run() in this process (threads=1)
//   Isolated: run() through kcs-worker, as the harness calls it (threads=1)
#include <cblas.h>

#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using kcs::device::bench::MatmulSize;

void bare(benchmark::State& state, const MatmulSize& s) {
    const auto m = static_cast<blasint>(s.m), n = static_cast<blasint>(s.n), k = static_cast<blasint>(s.k);
    const std::vector<float> a(static_cast<std::size_t>(m * k), 1.0f), b(static_cast<std::size_t>(k * n), 1.0f);
    std::vector<float> c(static_cast<std::size_t>(m * n));
    for (auto _ : state) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f,
                    c.data(), n);
        benchmark::ClobberMemory();
    }
    if (c[0] != static_cast<float>(k)) state.SkipWithError("the bare cblas_sgemm computed a wrong product");
}

}  // namespace

int main(int argc, char** argv) {
    openblas_set_num_threads(1);
    return kcs::device::bench::run_matmul_benchmarks(argc, argv, bare, KCS_OPENBLAS_ADAPTER, {"threads=1"});
}
