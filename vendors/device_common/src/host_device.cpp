#include "host_device.hpp"

#include <cstring>
#include <fstream>

#include "adapter_failure.hpp"

namespace kcs::device {

namespace {

std::string range_text(std::uint64_t offset, std::uint64_t bytes) {
    return std::to_string(bytes) + " bytes at offset " + std::to_string(offset);
}

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

}  // namespace

kcs_buffer HostBuffers::allocate(std::uint64_t bytes) {
    if (bytes > std::vector<std::byte>().max_size() - slack_)
        fail(KCS_OUT_OF_MEMORY, "cannot allocate " + std::to_string(bytes) + " bytes");
    buffers_.emplace(next_handle_, std::vector<std::byte>(static_cast<std::size_t>(bytes + slack_)));
    return next_handle_++;
}

void HostBuffers::release(kcs_buffer handle) {
    if (buffers_.erase(handle) == 0) invalid("release: unknown buffer " + std::to_string(handle));
}

std::vector<std::byte>& HostBuffers::find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes) {
    const auto it = buffers_.find(handle);
    if (it == buffers_.end()) invalid("unknown buffer " + std::to_string(handle));
    const std::uint64_t size = it->second.size() - slack_;
    // Written so that offset + bytes cannot overflow.
    if (offset > size || bytes > size - offset)
        invalid(range_text(offset, bytes) + " lie outside buffer " + std::to_string(handle) + " of " +
                std::to_string(size) + " bytes");
    return it->second;
}

void HostBuffers::write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (!src && bytes > 0) invalid("write: src is NULL");
    try {
        std::vector<std::byte>& buffer = find(handle, offset, bytes);
        if (bytes > 0) std::memcpy(buffer.data() + offset, src, static_cast<std::size_t>(bytes));
    } catch (const AdapterFailure& e) {
        fail(e.status(), std::string("write: ") + e.what());
    }
}

void HostBuffers::read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (!dst && bytes > 0) invalid("read: dst is NULL");
    try {
        const std::vector<std::byte>& buffer = find(handle, offset, bytes);
        if (bytes > 0) std::memcpy(dst, buffer.data() + offset, static_cast<std::size_t>(bytes));
    } catch (const AdapterFailure& e) {
        fail(e.status(), std::string("read: ") + e.what());
    }
}

std::byte* HostBuffers::locate(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes) {
    return find(handle, offset, bytes).data() + offset;
}

std::string host_device_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        const auto colon = line.find(':');
        if (colon != std::string::npos && trim(line.substr(0, colon)) == "model name") {
            const std::string model = trim(line.substr(colon + 1));
            if (!model.empty()) return "host CPU (" + model + ")";
        }
    }
    return "host CPU";
}

}  // namespace kcs::device
