// A test adapter that offers one operator: the reference matmul, through the
// CPU core, and KCS_UNSUPPORTED for everything else. It stands for a vendor
// library that computes only matrix products: a certification of it must
// judge matmul alone, call the rest UNSUPPORTED, and need no claim about
// operators it does not offer.
#include <kcs/adapter.h>

#include <cstring>

#include "kcs/cpu_core/cpu_adapter.hpp"

namespace {

constexpr kcs::cpu_core::AdapterProfile kProfile{"matmul-only", "0.1.0", false};

bool is_matmul(const kcs_op* op) { return op && op->name && std::strcmp(op->name, "matmul") == 0; }

kcs_status open(const char* const* options, std::uint32_t option_count, kcs_adapter** out) {
    return kcs::cpu_core::open_adapter(kProfile, options, option_count, out);
}

kcs_status supports(kcs_adapter* adapter, const kcs_op* op) {
    if (op && op->name && !is_matmul(op)) return KCS_UNSUPPORTED;
    return kcs::cpu_core::abi::supports(adapter, op);
}

kcs_status run(kcs_adapter* adapter, const kcs_op* op) {
    if (op && op->name && !is_matmul(op)) return KCS_UNSUPPORTED;
    return kcs::cpu_core::abi::run(adapter, op);
}

constexpr kcs_adapter_api make_table() {
    kcs_adapter_api api = kcs::cpu_core::make_api(kProfile, open);
    api.supports = supports;
    api.run = run;
    return api;
}

constexpr kcs_adapter_api kApi = make_table();

}  // namespace

KCS_ADAPTER_DEFINE_EXPORTS(kApi)
