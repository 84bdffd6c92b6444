#include "options.hpp"

#include <cstdlib>
#include <string_view>

#include "failure.hpp"
#include "option_list.hpp"

namespace kcs::opencl {

namespace {

constexpr const char* kAccepted = "platform=, device=, build_options=, local_size=, cache_dir=";

const char* environment(const char* name) {
    const char* value = std::getenv(name);
    return value && *value ? value : nullptr;
}

}  // namespace

std::optional<std::filesystem::path> default_cache_dir() {
    if (const char* dir = environment("KCS_OPENCL_CACHE_DIR"))
        return std::string_view(dir) == "none" ? std::nullopt : std::optional<std::filesystem::path>(dir);
    if (const char* xdg = environment("XDG_CACHE_HOME")) return std::filesystem::path(xdg) / "kcs" / "opencl";
    if (const char* home = environment("HOME")) return std::filesystem::path(home) / ".cache" / "kcs" / "opencl";
    return std::nullopt;
}

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    bool cache_given = false;
    for_each_option(options, option_count, "opencl", kAccepted, [&](std::string_view key, const std::string& value) {
        if (key == "platform") {
            parsed.platform = value;
        } else if (key == "device") {
            parsed.device = value;
        } else if (key == "build_options") {
            parsed.build_options = value;
        } else if (key == "local_size") {
            parsed.local_size = parse_power_of_two(key, value, kMinLocalSize, kMaxLocalSize);
        } else if (key == "cache_dir") {
            if (value.empty()) invalid("cache_dir= needs a folder, or none for no cache");
            cache_given = true;
            if (value != "none") parsed.cache_dir = std::filesystem::path(value);
        } else {
            unknown_option(key, "opencl", kAccepted);
        }
    });
    if (!cache_given) parsed.cache_dir = default_cache_dir();
    return parsed;
}

}  // namespace kcs::opencl
