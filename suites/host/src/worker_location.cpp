// find_worker_executable (declared in isolated_adapter.hpp).
#include <unistd.h>

#include <cstdlib>
#include <system_error>

#include "kcs/host/adapter_error.hpp"
#include "kcs/host/isolated_adapter.hpp"

#ifndef KCS_WORKER_PATH
#error "KCS_WORKER_PATH must name the kcs-worker of the build tree"
#endif

namespace kcs::host {

std::filesystem::path find_worker_executable(const std::filesystem::path& adapter) {
    namespace fs = std::filesystem;
    if (const char* given = std::getenv("KCS_WORKER"); given && *given) {
        if (::access(given, X_OK) == 0) return given;
        throw AdapterError(adapter, AdapterProblem::worker_failed,
                           std::string("KCS_WORKER names ") + given + ", which is not an executable file");
    }
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    const auto beside = ec ? fs::path() : self.parent_path() / "kcs-worker";
    if (!beside.empty() && ::access(beside.c_str(), X_OK) == 0) return beside;
    const fs::path built = KCS_WORKER_PATH;
    if (::access(built.c_str(), X_OK) == 0) return built;
    throw AdapterError(adapter, AdapterProblem::worker_failed,
                       "cannot find kcs-worker (looked at " + (beside.empty() ? "" : beside.string() + " and ") +
                           built.string() + "); build the kcs-worker target or set KCS_WORKER");
}

}  // namespace kcs::host
