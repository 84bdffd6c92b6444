#include "kcs/reports/environment.hpp"

#include <gnu/libc-version.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

extern char** environ;

namespace kcs::reports {

namespace {

// The value of `key` in a "key: value" or KEY=value text file, unquoted; empty when absent.
std::string field(const std::string& file, const std::string& key, char separator) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with(key)) continue;
        const auto at = line.find(separator);
        if (at == std::string::npos || line.substr(0, line.find_last_not_of(" \t", at - 1) + 1) != key) continue;
        std::string value = line.substr(at + 1);
        value.erase(0, value.find_first_not_of(" \t\""));
        value.erase(value.find_last_not_of(" \t\"") + 1);
        return value;
    }
    return {};
}

std::string compiler() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("GCC ") + __VERSION__;
#else
    return "unknown";
#endif
}

}  // namespace

bool kcs_relevant_variable(const std::string& name) {
    static const std::array<std::string, 11> prefixes{"KCS_",     "POCL_", "MESA_", "LP_",   "GALLIUM_", "VK_",
                                                      "OCL_ICD_", "CUDA_", "HIP_",  "ROCR_", "OMP_"};
    for (const auto& p : prefixes)
        if (name.starts_with(p)) return true;
    return false;
}

spec::Json capture_environment() {
    spec::Json os = spec::Json::object();
    if (utsname u{}; uname(&u) == 0)
        os = {{"sysname", u.sysname}, {"release", u.release}, {"version", u.version}, {"machine", u.machine}};
    os["name"] = field("/etc/os-release", "PRETTY_NAME", '=');

    spec::Json variables = spec::Json::object();
    for (char** e = environ; e && *e; ++e) {
        const std::string entry = *e;
        const auto eq = entry.find('=');
        if (eq == std::string::npos) continue;
        const std::string name = entry.substr(0, eq);
        if (kcs_relevant_variable(name)) variables[name] = entry.substr(eq + 1);
    }
    return {
        {"os", os},
        {"cpu",
         {{"model", field("/proc/cpuinfo", "model name", ':')}, {"logical_cpus", std::thread::hardware_concurrency()}}},
        {"compiler", compiler()},
        {"libc", std::string("glibc ") + gnu_get_libc_version()},
        {"variables", variables}};
}

std::vector<std::string> current_command_line() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::vector<std::string> args;
    std::size_t start = 0;
    while (start < bytes.size()) {
        const auto end = bytes.find('\0', start);
        args.push_back(bytes.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return args;
}

std::string current_executable() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.string();
}

}  // namespace kcs::reports
