#include "shared_object.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "adapter_failure.hpp"

namespace kcs::device {

std::string shared_object_of(const void* symbol) {
    Dl_info info{};
    if (::dladdr(symbol, &info) == 0 || !info.dli_fname || !*info.dli_fname)
        fail(KCS_DEVICE_ERROR, "dladdr finds no shared object that holds the library's symbol");
    std::string path = info.dli_fname;
    std::error_code error;
    const std::filesystem::path resolved = std::filesystem::canonical(path, error);
    if (!error && resolved.string() != path) path += " -> " + resolved.string();
    return path;
}

}  // namespace kcs::device
