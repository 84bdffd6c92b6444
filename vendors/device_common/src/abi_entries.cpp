#include "abi_entries.hpp"

namespace kcs::device {

void fill_info(kcs_info* out, const InfoText& text) {
    if (!out) invalid("info: out is NULL");
    if (out->struct_size == 0) invalid("info: kcs_info.struct_size is not set");
    const auto has = [&](std::size_t offset) { return out->struct_size >= offset + sizeof(const char*); };
    if (has(offsetof(kcs_info, adapter_name))) out->adapter_name = text.adapter_name;
    if (has(offsetof(kcs_info, adapter_version))) out->adapter_version = text.adapter_version;
    if (has(offsetof(kcs_info, vendor))) out->vendor = text.vendor;
    if (has(offsetof(kcs_info, device))) out->device = text.device;
    if (has(offsetof(kcs_info, driver_version))) out->driver_version = text.driver_version;
    if (has(offsetof(kcs_info, notes))) out->notes = text.notes;
}

}  // namespace kcs::device
