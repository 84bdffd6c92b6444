#include "host_buffers.hpp"

#include <cstring>
#include <string>

namespace kcs::cpu_core {

namespace {

std::string range_text(std::uint64_t offset, std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes at offset " + std::to_string(offset);
}

}  // namespace

Outcome HostBuffers::allocate(std::uint64_t bytes, kcs_buffer& handle) {
    if (bytes > std::vector<std::byte>().max_size())
        return failure(KCS_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes");
    buffers_.emplace(next_handle_, std::vector<std::byte>(static_cast<std::size_t>(bytes)));
    handle = next_handle_++;
    return success();
}

Outcome HostBuffers::release(kcs_buffer handle) {
    if (buffers_.erase(handle) == 0) return invalid_argument("release: unknown buffer " + std::to_string(handle));
    return success();
}

Outcome HostBuffers::find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                          std::vector<std::byte>*& buffer) {
    const auto it = buffers_.find(handle);
    if (it == buffers_.end()) return invalid_argument("unknown buffer " + std::to_string(handle));
    const std::uint64_t size = it->second.size();
    // Written so that offset + bytes cannot overflow.
    if (offset > size || bytes > size - offset)
        return invalid_argument(range_text(offset, bytes) + " lie outside buffer " + std::to_string(handle) +
                                " of " + std::to_string(size) + " bytes");
    buffer = &it->second;
    return success();
}

Outcome HostBuffers::write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (!src && bytes > 0) return invalid_argument("write: src is NULL");
    std::vector<std::byte>* buffer = nullptr;
    if (Outcome found = find(handle, offset, bytes, buffer); !found.ok()) {
        found.message = "write: " + found.message;
        return found;
    }
    if (bytes > 0) std::memcpy(buffer->data() + offset, src, static_cast<std::size_t>(bytes));
    return success();
}

Outcome HostBuffers::read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (!dst && bytes > 0) return invalid_argument("read: dst is NULL");
    std::vector<std::byte>* buffer = nullptr;
    if (Outcome found = find(handle, offset, bytes, buffer); !found.ok()) {
        found.message = "read: " + found.message;
        return found;
    }
    if (bytes > 0) std::memcpy(dst, buffer->data() + offset, static_cast<std::size_t>(bytes));
    return success();
}

Outcome HostBuffers::locate(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, std::byte*& address) {
    std::vector<std::byte>* buffer = nullptr;
    if (Outcome found = find(handle, offset, bytes, buffer); !found.ok()) return found;
    address = buffer->data() + offset;
    return success();
}

}  // namespace kcs::cpu_core
