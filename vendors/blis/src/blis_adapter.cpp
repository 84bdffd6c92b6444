// libkcs-adapter-blis.so: matmul on f32 by BLIS's typed API, bli_sgemm_ex;
// the ABI, the buffers and the checks are blas_common's. Linked to
// libblis.so.4 by name, never to the libblas.so.3 alternative.
#include <blis.h>

#include <memory>
#include <optional>
#include <string>

#include "adapter_failure.hpp"
#include "blas_adapter.hpp"

namespace kcs::blis {

namespace {

class Blis final : public blas::Library {
public:
    // threads=N goes into this instance's own runtime object (rntm_t), so
    // that instances opened with other counts keep theirs; without it BLIS
    // reads its global setting (BLIS_NUM_THREADS, else OMP_NUM_THREADS, else 1).
    explicit Blis(const blas::Options& options)
        : object_(blas::shared_object_of(reinterpret_cast<const void*>(&bli_sgemm_ex))), threads_(options.threads) {
        // BLIS initializes itself on its first computation, but with
        // BLIS_ARCH_TYPE set, bli_arch_query_id (describe) before that
        // aborts the process: 0.9.0 checks the requested arch against
        // contexts not yet built (frame/base/bli_arch.c).
        bli_init();
        if (!threads_) return;
        runtime_.emplace();
        bli_rntm_init(&*runtime_);
        bli_rntm_set_num_threads(*threads_, &*runtime_);
    }

    blas::Description describe() const override {
        const std::string arch = bli_arch_string(bli_arch_query_id());
        const std::string version = bli_info_get_version_str();
        return {"BLIS", device::host_device_name() + ", BLIS arch " + arch, "BLIS " + version,
                "library: " + object_ + "\narch: " + arch + " (bli_arch_query_id, bli_arch_string)\nversion: " +
                    version + " (bli_info_get_version_str)\nthreads: " + threads_text() +
                    "\nmatmul f32 x f32 -> f32: bli_sgemm_ex, row-major strides, alpha 1, beta 0 (C written, "
                    "never read); every other operator and dtype configuration is declined"};
    }

    void sgemm(const blas::Gemm& g) override {
        float one = 1.0f, zero = 0.0f;
        const auto row = [](std::int64_t extent) { return static_cast<inc_t>(extent > 1 ? extent : 1); };
        // The typed API takes non-const operands; it reads A and B only.
        bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, g.m, g.n, g.k, &one, const_cast<float*>(g.a), row(g.k), 1,
                     const_cast<float*>(g.b), row(g.n), 1, &zero, g.c, row(g.n), 1, nullptr,
                     runtime_ ? &*runtime_ : nullptr);
    }

private:
    std::string threads_text() const {
        if (threads_) return std::to_string(*threads_) + " (threads=, this instance's rntm_t)";
        const dim_t global = bli_thread_get_num_threads();
        return (global > 0 ? std::to_string(global) : std::string("1")) +
               " (BLIS's global setting: BLIS_NUM_THREADS, else OMP_NUM_THREADS, else 1)";
    }

    std::string object_;             // the shared object BLIS was loaded from
    std::optional<int> threads_;     // threads=N; none: BLIS's global setting
    std::optional<rntm_t> runtime_;  // set exactly when threads_ is
};

struct Module {
    static constexpr const char* kName = "blis";
    static std::unique_ptr<blas::Library> open(const blas::Options& options) {
        return std::make_unique<Blis>(options);
    }
};

}  // namespace

}  // namespace kcs::blis

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::blas::Backend<kcs::blis::Module>>::api)
