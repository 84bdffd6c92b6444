#include "kcs_root.hpp"

#include <cstdlib>

namespace kcs::cli {

namespace {
constexpr std::string_view kVariable = "${KCS_ROOT}";
constexpr std::string_view kAfterEquals = "=${KCS_ROOT}";
}  // namespace

std::filesystem::path kcs_root() {
    if (const char* env = std::getenv("KCS_ROOT"); env && *env) return std::filesystem::path(env).lexically_normal();
    return std::filesystem::path(KCS_SOURCE_DIR).lexically_normal();
}

std::string rooted(const std::filesystem::path& path) {
    const auto absolute = std::filesystem::absolute(path).lexically_normal();
    const auto relative = absolute.lexically_relative(kcs_root());
    if (relative.empty() || *relative.begin() == "..") return absolute.string();
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a "+" chain here.
    std::string out(kVariable);
    out += '/';
    out += relative.string();
    return out;
}

std::string expand_root(const std::string& argument) {
    const std::size_t at = argument.starts_with(kVariable) ? 0 : argument.find(kAfterEquals);
    if (at == std::string::npos) return argument;
    const std::size_t start = at == 0 ? 0 : at + 1;
    std::string out = argument.substr(0, start);
    out += kcs_root().string();
    out += argument.substr(start + kVariable.size());
    return out;
}

}  // namespace kcs::cli
