#include "options.hpp"

#include <limits>
#include <string>
#include <string_view>

#include "option_list.hpp"

namespace kcs::cublas_adapter {

namespace {

constexpr const char* kName = "cublas";
constexpr const char* kAccepted =
    "device=N, math=default|tf32|pedantic, reduced_precision_reduction=true|false, atomics=allowed|not_allowed, "
    "workspace=BYTES";

}  // namespace

const char* name_of(Math math) {
    switch (math) {
        case Math::tf32: return "tf32";
        case Math::pedantic: return "pedantic";
        default: return "default";
    }
}

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    device::for_each_option(options, option_count, kName, kAccepted, [&](std::string_view key, const std::string& value) {
        if (key == "device") {
            parsed.device = static_cast<int>(device::parse_whole_number(key, value, std::numeric_limits<int>::max(),
                                                                        "a device index from 0"));
        } else if (key == "math") {
            parsed.math = static_cast<Math>(device::parse_choice(key, value, {"default", "tf32", "pedantic"}));
        } else if (key == "reduced_precision_reduction") {
            parsed.reduced_precision_reduction = device::parse_choice(key, value, {"false", "true"}) == 1;
        } else if (key == "atomics") {
            parsed.atomics = device::parse_choice(key, value, {"not_allowed", "allowed"}) == 1;
        } else if (key == "workspace") {
            parsed.workspace =
                device::parse_whole_number(key, value, std::numeric_limits<std::uint64_t>::max(), "a number of bytes");
        } else {
            device::unknown_option(key, kName, kAccepted);
        }
    });
    return parsed;
}

}  // namespace kcs::cublas_adapter
