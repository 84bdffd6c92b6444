// What one matmul costs at each layer on XNNPACK, on the calling thread
// everywhere (no thread pool: the adapter's default), for each size of
// kMatmulSizes:
//   Bare:       XNNPACK's fully connected as the adapter calls it (f32,
//               XNN_FLAG_TRANSPOSE_WEIGHTS, range [-inf, +inf]): each
//               iteration creates the operator (which packs B), sets it up,
//               runs it and deletes it, since every KCS call brings its own B
//   BarePacked: the same operator created once (B packed once), each
//               iteration a setup and a run: XNNPACK's inference use, with
//               constant weights, which a KCS call cannot assume
//   Adapter:    the adapter's run() in this process
//   Isolated:   run() through kcs-worker, as the harness calls it
#include <xnnpack.h>

#include <cmath>
#include <string>
#include <vector>

#include "adapter_call_bench.hpp"

namespace {

using kcs::device::bench::MatmulSize;

struct Product {
    std::vector<float> a, b, c;
    explicit Product(const MatmulSize& s)
        : a(static_cast<std::size_t>(s.m * s.k) + XNN_EXTRA_BYTES / sizeof(float), 1.0f),
          b(static_cast<std::size_t>(s.k * s.n), 1.0f),
          c(static_cast<std::size_t>(s.m * s.n)) {}
};

xnn_operator_t create(const MatmulSize& s, const float* b) {
    xnn_operator_t op = nullptr;
    const auto k = static_cast<std::size_t>(s.k), n = static_cast<std::size_t>(s.n);
    if (xnn_create_fully_connected_nc_f32(k, n, k, n, b, nullptr, -INFINITY, INFINITY, XNN_FLAG_TRANSPOSE_WEIGHTS,
                                          &op) != xnn_status_success)
        return nullptr;
    return op;
}

bool setup_and_run(xnn_operator_t op, const MatmulSize& s, Product& p) {
    return xnn_setup_fully_connected_nc_f32(op, static_cast<std::size_t>(s.m), p.a.data(), p.c.data(), nullptr) ==
               xnn_status_success &&
           xnn_run_operator(op, nullptr) == xnn_status_success;
}

void bare(benchmark::State& state, const MatmulSize& s) {
    Product p(s);
    for (auto _ : state) {
        xnn_operator_t op = create(s, p.b.data());
        if (!op || !setup_and_run(op, s, p)) return state.SkipWithError("XNNPACK refused the fully connected call");
        xnn_delete_operator(op);
        benchmark::ClobberMemory();
    }
    if (p.c[0] != static_cast<float>(s.k)) state.SkipWithError("the bare fully connected computed a wrong product");
}

void bare_packed(benchmark::State& state, const MatmulSize& s) {
    Product p(s);
    xnn_operator_t op = create(s, p.b.data());
    if (!op) return state.SkipWithError("XNNPACK refused the fully connected operator");
    for (auto _ : state) {
        if (!setup_and_run(op, s, p)) return state.SkipWithError("XNNPACK refused the fully connected call");
        benchmark::ClobberMemory();
    }
    xnn_delete_operator(op);
    if (p.c[0] != static_cast<float>(s.k)) state.SkipWithError("the packed fully connected computed a wrong product");
}

}  // namespace

int main(int argc, char** argv) {
    if (xnn_initialize(nullptr) != xnn_status_success) return 2;
    kcs::device::bench::register_matmul_benchmarks(bare, KCS_XNNPACK_ADAPTER, {});
    for (const MatmulSize& size : kcs::device::bench::kMatmulSizes) {
        std::string name("BarePacked/");
        name.append(std::to_string(size.m)).append("x").append(std::to_string(size.n));
        name.append("x").append(std::to_string(size.k));
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) {
            bare_packed(s, size);
        })->Unit(benchmark::kMicrosecond);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
