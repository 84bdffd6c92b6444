#include "host_library.hpp"

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

}  // namespace kcs::host
