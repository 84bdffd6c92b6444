// The reference-cpu adapter: the conforming reference kernels on the host
// CPU, behind the ABI that kcs_cpu_core implements. Option: threads=N.
#include <kcs/adapter.h>

#include "kcs/cpu_core/cpu_adapter.hpp"

namespace {

constexpr kcs::cpu_core::AdapterProfile kProfile{"reference-cpu", KCS_ADAPTER_VERSION, false};

kcs_status open(const char* const* options, std::uint32_t option_count, kcs_adapter** out) {
    return kcs::cpu_core::open_adapter(kProfile, options, option_count, out);
}

constexpr kcs_adapter_api kApi = kcs::cpu_core::make_api(kProfile, open);

}  // namespace

KCS_ADAPTER_DEFINE_EXPORTS(kApi)
