#include "options.hpp"

#include <charconv>
#include <cstdlib>
#include <set>
#include <string_view>

#include "failure.hpp"

namespace kcs::opencl {

namespace {

constexpr const char* kAccepted = "platform=, device=, build_options=, local_size=, cache_dir=";

std::size_t parse_local_size(std::string_view value) {
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    const bool power_of_two = n > 0 && (n & (n - 1)) == 0;
    if (error != std::errc() || end != value.data() + value.size() || !power_of_two || n > kMaxLocalSize)
        invalid("local_size=" + std::string(value) + ": expected a power of two from 1 to " +
                std::to_string(kMaxLocalSize));
    return n;
}

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
    if (option_count > 0 && !options) invalid("options is NULL with option_count > 0");
    Options parsed;
    bool cache_given = false;
    std::set<std::string, std::less<>> seen;
    for (std::uint32_t i = 0; i < option_count; ++i) {
        if (!options[i]) invalid("option " + std::to_string(i) + " is NULL");
        const std::string_view option = options[i];
        const auto equals = option.find('=');
        if (equals == std::string_view::npos)
            invalid("option '" + std::string(option) + "' is not key=value (opencl accepts " + kAccepted + ")");
        const std::string_view key = option.substr(0, equals);
        const std::string value(option.substr(equals + 1));
        if (!seen.emplace(key).second) invalid("option '" + std::string(key) + "' is given twice");
        if (key == "platform") {
            parsed.platform = value;
        } else if (key == "device") {
            parsed.device = value;
        } else if (key == "build_options") {
            parsed.build_options = value;
        } else if (key == "local_size") {
            parsed.local_size = parse_local_size(value);
        } else if (key == "cache_dir") {
            if (value.empty()) invalid("cache_dir= needs a folder, or none for no cache");
            cache_given = true;
            if (value != "none") parsed.cache_dir = std::filesystem::path(value);
        } else {
            invalid("unknown option '" + std::string(key) + "' (opencl accepts " + kAccepted + ")");
        }
    }
    if (!cache_given) parsed.cache_dir = default_cache_dir();
    return parsed;
}

}  // namespace kcs::opencl
