// libkcs-adapter-torch.so: the v1 operators as PyTorch's ATen computes them
// on the CPU (libtorch's C++ API, no Python), each by the at:: function a
// PyTorch program calls for it (operators.cpp says which). ATen chooses
// its own kernel beneath that function (its vectorised code, oneDNN, the
// BLAS libtorch links), as it does for any caller. Every operator or
// configuration ATen does not compute is KCS_UNSUPPORTED with ATen's
// reason. The ABI, buffers and request parsing are device_common's
// host-library layer.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <dlfcn.h>

#include <filesystem>
#include <memory>
#include <string>

#include "adapter_failure.hpp"
#include "debian_package.hpp"
#include "host_library.hpp"
#include "operators.hpp"
#include "options.hpp"

namespace kcs::torch {

namespace {

// The value after `key` in at::show_config() up to the end of its item
// ("TORCH_VERSION=" -> "1.13.0"), "" where the build does not say.
std::string config_value(const std::string& config, const std::string& key, const char* ends = ",\n") {
    const auto at = config.find(key);
    if (at == std::string::npos) return "";
    const auto from = at + key.size();
    return config.substr(from, config.find_first_of(ends, from) - from);
}

// Which shared object ATen's BLAS calls reach: libtorch of a "generic" BLAS
// build calls the Fortran sgemm_ of libblas.so.3, a Debian alternative
// (OpenBLAS, BLIS or the reference BLAS, whichever is selected).
std::string blas_object() {
    void* blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (!blas) return "libblas.so.3 not loaded (ATen does not link it in this build)";
    const void* sgemm = dlsym(blas, "sgemm_");
    dlclose(blas);
    return sgemm ? device::shared_object_of(sgemm) + " (sgemm_)" : "libblas.so.3 loaded, without sgemm_";
}

// Which of the adapter's calls ATen hands to oneDNN (ATen 1.13,
// native/Activation.cpp use_mkldnn, native/mkldnn/Utils.h
// mkldnn_bf16_device_check): f32 gelu with approximate="none" of more than
// one contiguous element always; bf16 matmul and gelu only on CPUs with
// AVX-512 BW, VL and DQ.
std::string onednn_use() {
    const bool avx512 = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                        __builtin_cpu_supports("avx512dq");
    return std::string("ATen calls it for f32 gelu (approximate none) of more than one element, and for bf16 matmul "
                       "and gelu on CPUs with AVX-512 BW, VL and DQ: ") +
           (avx512 ? "this one has them" : "not this one, where bf16 runs ATen's own loops");
}

class Torch final : public host::Library {
public:
    explicit Torch(const Options& options)
        : options_(options), aten_(options), object_(device::shared_object_of(reinterpret_cast<const void*>(&at::show_config))) {
        if (options.flush_denormal) {
            // ATen answers false where the CPU has no flush-to-zero control (not SSE3 on x86).
            const bool can = at::globalContext().setFlushDenormal(true);
            at::globalContext().setFlushDenormal(false);
            if (!can) device::unsupported("flush_denormal=true: ATen says this CPU cannot flush subnormals");
        }
        threads_of(options);  // ATen's own thread count, read before any instance sets it
        const auto arrow = object_.find(" -> ");
        package_ = device::package_of(arrow == std::string::npos ? object_ : object_.substr(arrow + 4), "libtorch");
        config_ = at::show_config();
        blas_ = blas_object();
    }

    host::Description describe() const override {
        const std::string version = config_value(config_, "TORCH_VERSION=");
        const std::string onednn = config_value(config_, "MKL-DNN ", " (\n");
        std::string notes =
            "library: " + object_ + "\nversion: ATen " + version + " (at::show_config's TORCH_VERSION); " +
            package_.text + "\nCPU capability ATen dispatches its vectorised kernels for: " +
            config_value(config_, "CPU capability usage: ", "\n") + "\nBLAS: BLAS_INFO=" +
            config_value(config_, "BLAS_INFO=") + ": " + blas_ + "\noneDNN: " +
            (at::hasMKLDNN() ? "linked (USE_MKLDNN=ON, " + onednn + "); " + onednn_use() : "not linked") +
            "\nparallel backend: " + (config_.find("OpenMP") != std::string::npos ? "OpenMP" : "native") +
            "\nthreads: " + std::to_string(threads_of(options_)) +
            (options_.threads ? " (threads=)" : " (ATen's own choice at start)") +
            "\ndeterministic algorithms: " + (options_.deterministic ? "on (deterministic=true)" : "off") +
            "\nflush denormal: " +
            (options_.flush_denormal ? "on (flush_denormal=true: MXCSR FTZ and DAZ on the calling thread, for each call)"
                                     : "off") +
            "\n" + aten_.mapping();
        return {"PyTorch", device::host_device_name(), "ATen " + version, notes};
    }

    void supports(const device::Request& request) override { aten_.check_offered(request); }

    void run(const device::Request& request, device::HostBuffers& buffers) override { aten_.compute(request, buffers); }

private:
    Options options_;
    Aten aten_;
    std::string object_;  // the shared object ATen was loaded from
    device::Package package_;
    std::string config_, blas_;
};

struct Module {
    static constexpr const char* kName = "torch";
    static std::unique_ptr<host::Library> open(const char* const* options, std::uint32_t option_count) {
        return std::make_unique<Torch>(parse_options(options, option_count));
    }
};

}  // namespace

}  // namespace kcs::torch

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::host::Backend<kcs::torch::Module>>::api)
