// What one matmul costs at each layer on BLIS, one thread everywhere (the
// machine's cores would otherwise make the bare call and the worker's
// compete differently), for each size of kMatmulSizes:
//   Bare:     bli_sgemm_ex with row-major strides, alpha 1, beta 0 and a
//             runtime object of one thread, as the adapter calls it
//   Adapter:  the adapter's run() in this process (threads=1)
//   Isolated: run() through kcs-worker, as the harness calls it (threads=1)
#include <blis.h>

#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using kcs::device::bench::MatmulSize;

void bare(benchmark::State& state, const MatmulSize& s) {
    std::vector<float> a(static_cast<std::size_t>(s.m * s.k), 1.0f), b(static_cast<std::size_t>(s.k * s.n), 1.0f);
    std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
    rntm_t runtime;
    bli_rntm_init(&runtime);
    bli_rntm_set_num_threads(1, &runtime);
    float one = 1.0f, zero = 0.0f;
    for (auto _ : state) {
        bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, s.m, s.n, s.k, &one, a.data(), s.k, 1, b.data(), s.n, 1,
                     &zero, c.data(), s.n, 1, nullptr, &runtime);
        benchmark::ClobberMemory();
    }
    if (c[0] != static_cast<float>(s.k)) state.SkipWithError("the bare bli_sgemm_ex computed a wrong product");
}

}  // namespace

int main(int argc, char** argv) {
    bli_init();
    return kcs::device::bench::run_matmul_benchmarks(argc, argv, bare, KCS_BLIS_ADAPTER, {"threads=1"});
}
