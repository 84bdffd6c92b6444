// libkcs-adapter-openblas.so: matmul on f32 by OpenBLAS's cblas_sgemm;
// the ABI, the buffers and the checks are blas_common's. Linked to
// libopenblas.so.0 by name, never to the libblas.so.3 alternative, and
// open() refuses to run when cblas_sgemm resolves to another object than
// OpenBLAS's own functions do.
#include <cblas.h>

#include <memory>
#include <string>

#include "adapter_failure.hpp"
#include "blas_adapter.hpp"

namespace kcs::openblas {

namespace {

std::string trimmed(const char* text) {
    std::string s = text ? text : "";
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// OpenBLAS keeps one thread count per process; it caps a request at its
// build's MAX_THREADS, which is refused here rather than run silently.
void set_threads(int threads) {
    const int before = openblas_get_num_threads();
    openblas_set_num_threads(threads);
    const int now = openblas_get_num_threads();
    if (now == threads) return;
    openblas_set_num_threads(before);
    device::invalid("threads=" + std::to_string(threads) + ": this OpenBLAS runs at most " + std::to_string(now) +
                    " threads");
}

class OpenBlas final : public blas::Library {
public:
    explicit OpenBlas(const blas::Options& options)
        : object_(blas::shared_object_of(reinterpret_cast<const void*>(&openblas_get_config))) {
        const std::string gemm_object = blas::shared_object_of(reinterpret_cast<const void*>(&cblas_sgemm));
        if (gemm_object != object_)
            device::fail(KCS_DEVICE_ERROR,
                         "cblas_sgemm resolves to " + gemm_object + ", not to OpenBLAS (" + object_ + ")");
        if (options.threads) set_threads(*options.threads);
    }

    blas::Description describe() const override {
        const std::string core = trimmed(openblas_get_corename());
        const std::string config = trimmed(openblas_get_config());
        const std::string threads = std::to_string(openblas_get_num_threads());
        return {"OpenBLAS", device::host_device_name() + ", OpenBLAS core " + core, config,
                "library: " + object_ + "\ncore: " + core + " (openblas_get_corename)\nconfig: " + config +
                    " (openblas_get_config)\nthreads: " + threads +
                    " (openblas_get_num_threads; one count for the whole process)\n"
                    "matmul f32 x f32 -> f32: cblas_sgemm, row-major, alpha 1, beta 0 (C written, never read); "
                    "every other operator and dtype configuration is declined"};
    }

    void sgemm(const blas::Gemm& g) override {
        const auto ld = [](std::int64_t extent) { return static_cast<blasint>(extent > 1 ? extent : 1); };
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<blasint>(g.m), static_cast<blasint>(g.n),
                    static_cast<blasint>(g.k), 1.0f, g.a, ld(g.k), g.b, ld(g.n), 0.0f, g.c, ld(g.n));
    }

private:
    std::string object_;  // the shared object OpenBLAS was loaded from
};

struct Module {
    static constexpr const char* kName = "openblas";
    static std::unique_ptr<blas::Library> open(const blas::Options& options) {
        return std::make_unique<OpenBlas>(options);
    }
};

}  // namespace

}  // namespace kcs::openblas

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::blas::Backend<kcs::openblas::Module>>::api)
