#include "clblast_options.hpp"

#include <string_view>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::clblast_adapter {

namespace {

constexpr const char* kAccepted = "platform=, device=, gemm_kernel=auto|direct|indirect, build_options=";

GemmKernel parse_gemm_kernel(const std::string& value) {
    for (const GemmKernel kernel : {GemmKernel::automatic, GemmKernel::direct, GemmKernel::indirect})
        if (value == name_of(kernel)) return kernel;
    device::invalid("gemm_kernel=" + value + ": takes auto, direct or indirect");
}

}  // namespace

const char* name_of(GemmKernel kernel) {
    switch (kernel) {
        case GemmKernel::direct: return "direct";
        case GemmKernel::indirect: return "indirect";
        case GemmKernel::automatic: break;
    }
    return "auto";
}

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    device::for_each_option(options, option_count, "clblast", kAccepted,
                            [&](std::string_view key, const std::string& value) {
                                if (key == "platform") {
                                    parsed.device.platform = value;
                                } else if (key == "device") {
                                    parsed.device.device = value;
                                } else if (key == "gemm_kernel") {
                                    parsed.gemm_kernel = parse_gemm_kernel(value);
                                } else if (key == "build_options") {
                                    parsed.build_options = value;
                                } else {
                                    device::unknown_option(key, "clblast", kAccepted);
                                }
                            });
    return parsed;
}

}  // namespace kcs::clblast_adapter
