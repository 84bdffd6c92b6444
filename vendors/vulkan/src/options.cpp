#include "options.hpp"

#include "option_list.hpp"
#include "vk_failure.hpp"

namespace kcs::vulkan {

Options parse_options(const char* const* options, std::uint32_t option_count) {
    constexpr const char* kAccepted = "device=, local_size=, memory=";
    Options parsed;
    for_each_option(options, option_count, "vulkan", kAccepted, [&](std::string_view key, const std::string& value) {
        if (key == "device") {
            if (value.empty()) invalid("device= needs an index or a part of the device's name");
            parsed.device = value;
        } else if (key == "local_size") {
            parsed.local_size = parse_power_of_two(key, value, 1, kMaxLocalSize);
        } else if (key == "memory") {
            parsed.always_staged = parse_choice(key, value, {"auto", "staged"}) == 1;
        } else {
            unknown_option(key, "vulkan", kAccepted);
        }
    });
    return parsed;
}

}  // namespace kcs::vulkan
