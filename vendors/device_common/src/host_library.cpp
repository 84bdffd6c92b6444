#include "host_library.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

#include "adapter_failure.hpp"

namespace kcs::host {

std::byte* tensor_address(device::HostBuffers& buffers, const device::TensorRef& tensor, const std::string& what) {
    const std::uint64_t size = device::size_of(tensor.dtype);
    if (tensor.offset % size != 0)
        device::invalid(what + ": offset " + std::to_string(tensor.offset) + " is not a multiple of " +
                        std::to_string(size) + " bytes");
    try {
        return buffers.locate(tensor.buffer, tensor.offset, tensor.elements() * size);
    } catch (const device::AdapterFailure& e) {
        device::invalid(what + ": " + e.what());
    }
}

std::string shared_object_of(const void* symbol) {
    Dl_info info{};
    if (::dladdr(symbol, &info) == 0 || !info.dli_fname || !*info.dli_fname)
        device::fail(KCS_DEVICE_ERROR, "dladdr finds no shared object that holds the library's symbol");
    std::string path = info.dli_fname;
    std::error_code error;
    const std::filesystem::path resolved = std::filesystem::canonical(path, error);
    if (!error && resolved.string() != path) path += " -> " + resolved.string();
    return path;
}

}  // namespace kcs::host
