// libkcs-adapter-xnnpack.so: the v1 operators XNNPACK's operator API has
// (fully connected as matmul, softmax, sigmoid, add, multiply, maximum,
// convert as cast), each computed by XNNPACK's own operator
// (operators.cpp says which); every other operator, and every
// configuration XNNPACK has no operator for or refuses to create, is
// KCS_UNSUPPORTED. The ABI, buffers and request parsing are
// device_common's host-library layer.
#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <string>

#include "about.hpp"
#include "adapter_failure.hpp"
#include "debian_package.hpp"
#include "host_library.hpp"
#include "operators.hpp"
#include "options.hpp"

namespace kcs::xnnpack {

namespace {

struct PoolDeleter {
    void operator()(pthreadpool_t pool) const { pthreadpool_destroy(pool); }
};
using Pool = std::unique_ptr<pthreadpool, PoolDeleter>;

// XNNPACK initializes once per process (xnn_initialize is idempotent); a
// CPU it cannot run on fails open rather than every call.
void initialize() {
    const xnn_status status = xnn_initialize(nullptr);
    if (status != xnn_status_success)
        device::fail(KCS_DEVICE_ERROR,
                     "xnn_initialize returns " + status_name(status) +
                         (status == xnn_status_unsupported_hardware ? " (XNNPACK needs SSE2 on x86)" : ""));
}

class Xnnpack final : public host::Library {
public:
    explicit Xnnpack(const Options& options)
        : options_(options), object_(host::shared_object_of(reinterpret_cast<const void*>(&xnn_initialize))) {
        initialize();
        if (options.threads) {
            pool_.reset(pthreadpool_create(static_cast<std::size_t>(*options.threads)));
            if (!pool_)
                device::fail(KCS_OUT_OF_MEMORY, "pthreadpool_create(" + std::to_string(*options.threads) + ") failed");
        }
        settings_.pool = pool_.get();
        settings_.f16_matmul = options.f16_matmul;
        const auto arrow = object_.find(" -> ");
        package_ = device::package_of(arrow == std::string::npos ? object_ : object_.substr(arrow + 4), "libxnnpack");
        cpu_ = detected_cpu();
        created_ = created_operators();
    }

    host::Description describe() const override {
        const std::string threads =
            pool_ ? std::to_string(pthreadpool_get_threads_count(pool_.get())) +
                        " (threads=: a pthreadpool of that many threads, passed to every setup and run)"
                  : "1 (no pthreadpool: XNNPACK computes on the calling thread, its default for a NULL pool)";
        std::string notes =
            "library: " + object_ + "\nversion: this XNNPACK has no version API (xnnpack.h defines none); " +
            package_.text + "\nthreads: " + threads + "\nCPU as cpuinfo detects it: " + cpu_ +
            "\nmicro-kernels: XNNPACK names none through its API; xnn_initialize chooses them from cpuinfo's "
            "features above (its src/init.c)\nXNNPACK's answer to creating each operator at open:" +
            created_ +
            "\nmatmul: fully connected with XNN_FLAG_TRANSPOSE_WEIGHTS (B [K, N] as it is), no bias, output range "
            "[-inf, +inf], one operator per batch index; f32 -> f32" +
            (options_.f16_matmul ? ", f16 -> f16 (f16_matmul=offer)"
                                 : "; f16 declined: " + std::string(kF16MatmulReason)) +
            "\nsoftmax f32; unary sigmoid f32; elementwise add and mul f32 and f16, maximum f32; cast f32 <-> f16"
            "\ndeclined: every other operator, function and dtype configuration (XNNPACK's operator API has no "
            "operator for them), and whatever XNNPACK refuses to create";
        return {"XNNPACK", device::host_device_name(),
                package_.version.empty() ? "XNNPACK, version unknown" : "XNNPACK " + package_.version, notes};
    }

    void supports(const device::Request& request) override { check_offered(request, settings_); }

    void run(const device::Request& request, device::HostBuffers& buffers) override {
        compute(request, buffers, settings_);
    }

private:
    Options options_;
    std::string object_;  // the shared object XNNPACK was loaded from
    Pool pool_;           // threads=N's pool; none by default
    Settings settings_;
    device::Package package_;
    std::string cpu_, created_;
};

struct Module {
    static constexpr const char* kName = "xnnpack";
    // XNN_EXTRA_BYTES: "The number of bytes XNNPACK may read beyond array
    // bounds" (xnnpack.h), which its callers must allocate after every input.
    static constexpr std::uint64_t kReadSlack = XNN_EXTRA_BYTES;
    static std::unique_ptr<host::Library> open(const char* const* options, std::uint32_t option_count) {
        return std::make_unique<Xnnpack>(parse_options(options, option_count));
    }
};

}  // namespace

}  // namespace kcs::xnnpack

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::host::Backend<kcs::xnnpack::Module>>::api)
