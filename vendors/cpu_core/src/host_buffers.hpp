// The "device" buffers of a CPU adapter: host memory, by handle.
#pragma once

#include <kcs/adapter.h>

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "outcome.hpp"

namespace kcs::cpu_core {

class HostBuffers {
public:
    // A new buffer of `bytes` bytes; handles count up from 1 and are never
    // reused. KCS_OUT_OF_MEMORY when the size cannot be allocated.
    Outcome allocate(std::uint64_t bytes, kcs_buffer& handle);
    Outcome release(kcs_buffer handle);

    // Copies between host memory and [offset, offset + bytes) of a buffer;
    // nothing is copied unless that range lies within the buffer.
    Outcome write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes);
    Outcome read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes);

    // Host address of [offset, offset + bytes) of a buffer, after the same
    // checks as write and read.
    Outcome locate(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, std::byte*& address);

private:
    Outcome find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes, std::vector<std::byte>*& buffer);

    std::unordered_map<kcs_buffer, std::vector<std::byte>> buffers_;
    kcs_buffer next_handle_ = 1;  // 0 is never a valid handle
};

}  // namespace kcs::cpu_core
