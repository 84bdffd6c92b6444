#include "catalog_location.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <stdexcept>

#include "kcs/spec/catalog.hpp"
#include "kcs/spec/text_patterns.hpp"

namespace kcs::cli {

std::filesystem::path spec_root() {
    if (const char* env = std::getenv("KCS_SPEC_ROOT"); env && *env) return env;
    // Installed (cmake --install): PREFIX/bin/kcs and PREFIX/share/kcs/spec.
    // In the build tree that folder does not exist, and the sources' spec/ serves.
    static const std::filesystem::path installed = [] {
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        return ec ? std::filesystem::path() : self.parent_path().parent_path() / "share" / "kcs" / "spec";
    }();
    std::error_code ec;
    if (!installed.empty() && std::filesystem::is_directory(installed, ec)) return installed;
    return KCS_SPEC_ROOT;
}

std::vector<CarriedCatalog> carried_catalogs() {
    std::vector<CarriedCatalog> out;
    std::error_code ec;
    static const std::regex version_dir("v([0-9]+)");
    for (const auto& entry : std::filesystem::directory_iterator(spec_root(), ec)) {
        const std::string name = entry.path().filename().string();
        if (std::regex_match(name, version_dir) && std::filesystem::is_regular_file(entry.path() / "catalog.yaml"))
            out.push_back({name, entry.path()});
    }
    std::sort(out.begin(), out.end(), [](const CarriedCatalog& a, const CarriedCatalog& b) {
        return std::stoi(a.name.substr(1)) < std::stoi(b.name.substr(1));
    });
    return out;
}

std::filesystem::path default_catalog() {
    const auto all = carried_catalogs();
    if (all.empty())
        throw std::runtime_error("no catalog found under " + spec_root().string() +
                                 " (set KCS_SPEC_ROOT to the folder that holds v1/catalog.yaml)");
    return all.back().dir;
}

std::vector<CarriedCatalog> released_catalogs() {
    std::vector<CarriedCatalog> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(spec_root() / "releases", ec)) {
        const std::string name = entry.path().filename().string();
        if (spec::is_semantic_version(name) && std::filesystem::is_regular_file(entry.path() / "catalog.yaml"))
            out.push_back({name, entry.path()});
    }
    std::sort(out.begin(), out.end(),
              [](const CarriedCatalog& a, const CarriedCatalog& b) { return spec::compare_versions(a.name, b.name) < 0; });
    return out;
}

std::vector<CarriedCatalog> every_catalog() {
    std::vector<CarriedCatalog> all = carried_catalogs();
    for (auto& released : released_catalogs()) all.push_back(std::move(released));
    return all;
}

std::filesystem::path find_catalog(const std::string& folder_or_version) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(std::filesystem::path(folder_or_version) / "catalog.yaml", ec))
        return folder_or_version;
    if (!spec::is_semantic_version(folder_or_version)) return {};
    for (const auto& released : released_catalogs())
        if (released.name == folder_or_version) return released.dir;
    for (const auto& carried : carried_catalogs()) {
        const auto loaded = spec::load_catalog(carried.dir);
        if (loaded.ok() && loaded.catalog.spec_version == folder_or_version) return carried.dir;
    }
    return {};
}

std::filesystem::path catalog_named(const std::string& folder_or_version) {
    if (folder_or_version.empty()) return default_catalog();
    const auto found = find_catalog(folder_or_version);
    return found.empty() ? std::filesystem::path(folder_or_version) : found;
}

}  // namespace kcs::cli
