#include "debian_package.hpp"

#include <filesystem>
#include <fstream>

namespace kcs::device {

namespace {

// The Version field of package `name` in dpkg's status file, "" without one.
std::string dpkg_version(const std::string& name) {
    std::ifstream status("/var/lib/dpkg/status");
    bool in_package = false;
    for (std::string line; std::getline(status, line);) {
        if (line.rfind("Package: ", 0) == 0) in_package = line.substr(9) == name;
        if (in_package && line.rfind("Version: ", 0) == 0) return line.substr(9);
    }
    return "";
}

}  // namespace

Package package_of(const std::string& file, std::string_view list_prefix) {
    namespace fs = std::filesystem;
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator("/var/lib/dpkg/info", error)) {
        const std::string list = entry.path().filename().string();
        if (list.rfind(list_prefix, 0) != 0 || entry.path().extension() != ".list") continue;
        std::ifstream lines(entry.path());
        for (std::string line; std::getline(lines, line);) {
            if (line != file) continue;
            std::string package = list.substr(0, list.size() - 5);
            package = package.substr(0, package.find(':'));
            const std::string version = dpkg_version(package);
            return {version, "Debian package " + package + " " +
                                 (version.empty() ? "(no version in /var/lib/dpkg/status)" : version) + " installed " +
                                 file + " (the dpkg database)"};
        }
    }
    return {"", "unknown: no dpkg package named " + std::string(list_prefix) + "* lists " + file};
}

}  // namespace kcs::device
