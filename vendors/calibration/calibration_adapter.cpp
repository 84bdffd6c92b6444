// The calibration adapter: the reference kernels with the violation that
// violation=NAME selects (kcs::kernels::violations(); none by default),
// behind the ABI that kcs_cpu_core implements. Options: threads=N,
// violation=NAME.
#include <kcs/adapter.h>

#include "kcs/cpu_core/cpu_adapter.hpp"

namespace {

constexpr kcs::cpu_core::AdapterProfile kProfile{"calibration", KCS_ADAPTER_VERSION, true};

kcs_status open(const char* const* options, std::uint32_t option_count, kcs_adapter** out) {
    return kcs::cpu_core::open_adapter(kProfile, options, option_count, out);
}

constexpr kcs_adapter_api kApi = kcs::cpu_core::make_api(kProfile, open);

}  // namespace

KCS_ADAPTER_DEFINE_EXPORTS(kApi)
