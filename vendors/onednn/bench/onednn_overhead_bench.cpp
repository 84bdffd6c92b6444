// What one matmul costs at each layer on oneDNN, one thread everywhere (the
// machine's cores would otherwise make the bare call and the worker's
// compete differently), for each size of kMatmulSizes:
//   Bare:     oneDNN's matmul primitive as the adapter creates it (plain
//             row-major f32, fpmath strict), created once; each iteration
//             executes it and waits for the stream
//   Adapter:  the adapter's run() in this process (threads=1), which
//             creates the primitive descriptor on every call (oneDNN's
//             primitive cache keeps the kernel)
//   Isolated: run() through kcs-worker, as the harness calls it (threads=1)
#include <oneapi/dnnl/dnnl.hpp>

#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#endif

#include <unordered_map>
#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using dnnl::memory;
using kcs::device::bench::MatmulSize;

void bare(benchmark::State& state, const MatmulSize& s) {
    std::vector<float> a(static_cast<std::size_t>(s.m * s.k), 1.0f), b(static_cast<std::size_t>(s.k * s.n), 1.0f);
    std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
    const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const memory::desc a_md({s.m, s.k}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc b_md({s.k, s.n}, memory::data_type::f32, memory::format_tag::ab);
    const memory::desc c_md({s.m, s.n}, memory::data_type::f32, memory::format_tag::ab);
    dnnl::primitive_attr attr;
    attr.set_fpmath_mode(dnnl::fpmath_mode::strict);
    const dnnl::matmul product(dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), attr, engine));
    const std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(a_md, engine, a.data())},
                                               {DNNL_ARG_WEIGHTS, memory(b_md, engine, b.data())},
                                               {DNNL_ARG_DST, memory(c_md, engine, c.data())}};
    for (auto _ : state) {
        product.execute(stream, args);
        stream.wait();
    }
    if (c[0] != static_cast<float>(s.k)) state.SkipWithError("the bare matmul computed a wrong product");
}

}  // namespace

int main(int argc, char** argv) {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
    omp_set_num_threads(1);
#endif
    return kcs::device::bench::run_matmul_benchmarks(argc, argv, bare, KCS_ONEDNN_ADAPTER, {"threads=1"});
}
