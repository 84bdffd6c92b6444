#include "kcs/host/adapter_search.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "kcs/host/adapter_error.hpp"

#ifndef KCS_ADAPTER_DIR
#error "KCS_ADAPTER_DIR must name the build tree's library folder"
#endif

namespace kcs::host {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view file_prefix = "libkcs-adapter-";
constexpr std::string_view file_suffix = ".so";

bool looks_like_path(std::string_view s) {
    return s.find('/') != std::string_view::npos || s.ends_with(file_suffix);
}

}  // namespace

std::vector<fs::path> adapter_search_path(std::string_view kcs_adapter_path, const fs::path& build_dir) {
    std::vector<fs::path> dirs;
    while (!kcs_adapter_path.empty()) {
        const auto colon = kcs_adapter_path.find(':');
        const auto entry = kcs_adapter_path.substr(0, colon);
        // An empty entry would mean the current folder to a shell; that is
        // too easy to get by accident ("a::b", a trailing colon) to honour.
        if (!entry.empty()) dirs.emplace_back(entry);
        if (colon == std::string_view::npos) break;
        kcs_adapter_path.remove_prefix(colon + 1);
    }
    if (!build_dir.empty()) dirs.push_back(build_dir);
    return dirs;
}

std::vector<fs::path> adapter_search_path() {
    const char* env = std::getenv("KCS_ADAPTER_PATH");
    return adapter_search_path(env ? env : "", KCS_ADAPTER_DIR);
}

std::string adapter_file_name(std::string_view name) {
    return std::string(file_prefix) + std::string(name) + std::string(file_suffix);
}

fs::path resolve_adapter(std::string_view name_or_path, const std::vector<fs::path>& search_path) {
    if (looks_like_path(name_or_path)) return fs::path(name_or_path);
    const auto file = adapter_file_name(name_or_path);
    std::string searched;
    for (const auto& dir : search_path) {
        std::error_code ec;
        const auto candidate = dir / file;
        if (fs::exists(candidate, ec)) return candidate;
        searched += (searched.empty() ? "" : ", ") + dir.string();
    }
    throw AdapterError(fs::path(name_or_path), AdapterProblem::not_found,
                       "no adapter of that name: " + file + " is in none of " +
                           (searched.empty() ? std::string("(no folders)") : searched) +
                           " (KCS_ADAPTER_PATH adds folders; 'kcs adapter list' shows what is found)");
}

std::vector<FoundAdapter> find_adapters(const std::vector<fs::path>& search_path) {
    std::map<std::string, fs::path> found;  // sorted by name; the first folder wins
    for (const auto& dir : search_path) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const auto file = it->path().filename().string();
            if (file.size() <= file_prefix.size() + file_suffix.size() || !file.starts_with(file_prefix) ||
                !file.ends_with(file_suffix))
                continue;
            const auto name = file.substr(file_prefix.size(), file.size() - file_prefix.size() - file_suffix.size());
            found.try_emplace(name, it->path());
        }
    }
    std::vector<FoundAdapter> out;
    for (auto& [name, path] : found) out.push_back({name, path});
    return out;
}

}  // namespace kcs::host
