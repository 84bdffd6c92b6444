#include "options.hpp"

#include <charconv>
#include <string>
#include <string_view>
#include <type_traits>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::cublas_adapter {

namespace {

constexpr const char* kName = "cublas";
constexpr const char* kAccepted =
    "device=N, math=default|tf32|pedantic, reduced_precision_reduction=true|false, atomics=allowed|not_allowed, "
    "workspace=BYTES";

template <class T>
T parse_number(std::string_view key, const std::string& value, const char* what) {
    T n{};
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    bool negative = false;
    if constexpr (std::is_signed_v<T>) negative = n < 0;
    if (error != std::errc() || end != value.data() + value.size() || negative)
        device::invalid(std::string(key) + "=" + value + ": expected " + what);
    return n;
}

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
            parsed.device = parse_number<int>(key, value, "a device index from 0");
        } else if (key == "math") {
            parsed.math = static_cast<Math>(device::parse_choice(key, value, {"default", "tf32", "pedantic"}));
        } else if (key == "reduced_precision_reduction") {
            parsed.reduced_precision_reduction = device::parse_choice(key, value, {"false", "true"}) == 1;
        } else if (key == "atomics") {
            parsed.atomics = device::parse_choice(key, value, {"not_allowed", "allowed"}) == 1;
        } else if (key == "workspace") {
            parsed.workspace = parse_number<std::uint64_t>(key, value, "a number of bytes");
        } else {
            device::unknown_option(key, kName, kAccepted);
        }
    });
    return parsed;
}

}  // namespace kcs::cublas_adapter
