// C-ORD-03 (batch invariance) on oneDNN, without KCS: the shared repro
// (vendors/blas_common/repro/batch_invariance.h) over oneDNN's matmul
// primitive, created as the adapter creates it (repro::matmul: plain
// row-major f32 A [M, K], B [K, N], C [M, N], no bias, fpmath strict set
// explicitly, a primitive per call). --threads T is omp_set_num_threads(T),
// as the adapter's threads=T.
//
// KCS found the row's output changing with its position in the batch
// (signature row-changes-with-position, FINDINGS.md finding 10). Each time
// the implementation oneDNN picks changes with the shape, this prints it.
//
// Two options of its own, taken before the shared driver's:
//   --isa NAME       dnnl::set_max_cpu_isa(NAME) first, as the adapter's
//                    isa=NAME (sse41, avx, avx2, ...): the ISA picks the
//                    gemm kernel, and with it the behaviour (FINDINGS.md, Knobs)
//   --expect batch   the signature expected is row-changes-with-batch (the
//                    same change at every position) rather than -position
#include <oneapi/dnnl/dnnl.hpp>

#include <string>
#include <vector>

#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#endif

#include "batch_invariance.h"
#include "repro.hpp"

namespace {

void gemm(int m, int n, const float* a, const float* b, float* c) {
    static repro::Cpu cpu;
    const std::string impl = repro::matmul(cpu, m, DEPTH, n, a, b, c);
    // Every change of implementation between calls (M = 1 may not get
    // what M = 1024 gets): the rows below are read against it.
    static std::string last;
    if (impl != last) {
        last = impl;
        printf("  (oneDNN matmul for M = %d, N = %d: implementation %s)\n", m, n, impl.c_str());
    }
}

void set_threads(int threads) {
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
    omp_set_num_threads(threads);
#else
    fprintf(stderr, "--threads %d: this oneDNN's CPU runtime is not OpenMP; ignored\n", threads);
#endif
}

void describe() {
    const dnnl_version_t& v = *dnnl::version();
#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
    const int threads = omp_get_max_threads();
#else
    const int threads = 0;
#endif
    printf("oneDNN %d.%d.%d (git %s), effective ISA %s, %d OpenMP threads, fpmath strict\n", v.major, v.minor, v.patch,
           v.hash, repro::isa_name(dnnl::get_effective_cpu_isa()), threads);
}

}  // namespace

int main(int argc, char** argv) {
    int follows_position = 1;
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--isa" && i + 1 < argc) {
            if (!repro::cap_isa(argv[++i])) return 2;
        } else if (arg == "--expect" && i + 1 < argc) {
            const std::string expect = argv[++i];
            if (expect != "batch" && expect != "position") {
                fprintf(stderr, "--expect batch|position, not %s\n", expect.c_str());
                return 2;
            }
            follows_position = expect == "position";
        } else {
            rest.push_back(argv[i]);
        }
    }
    const BatchLibrary onednn = {"oneDNN", "onednn", follows_position, gemm, set_threads, describe};
    return batch_invariance(&onednn, static_cast<int>(rest.size()), rest.data());
}
