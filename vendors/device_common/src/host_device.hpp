// The host CPU as an adapter's device: buffers in host memory, by handle,
// and the CPU's name for info(). Shared by the CPU adapters over the
// reference kernels (cpu_core) and the adapters over CPU libraries
// (blas_common); nothing here computes.
#pragma once

#include <kcs/adapter.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kcs::device {

// Each refusal throws AdapterFailure: KCS_INVALID_ARGUMENT for an unknown
// handle or a range outside the buffer (and nothing is copied),
// KCS_OUT_OF_MEMORY for a size that cannot be allocated.
class HostBuffers {
public:
    // `slack` zero bytes follow every buffer, beyond its size and outside
    // every range the calls below accept: room for a library that reads,
    // but never writes, a few bytes past the end of its inputs (XNNPACK's
    // XNN_EXTRA_BYTES). 0 for every adapter whose library reads exactly.
    explicit HostBuffers(std::uint64_t slack = 0) : slack_(slack) {}

    // A new buffer of `bytes` bytes; handles count up from 1 and are never reused.
    kcs_buffer allocate(std::uint64_t bytes);
    void release(kcs_buffer handle);

    // Copies between host memory and [offset, offset + bytes) of a buffer.
    void write(kcs_buffer handle, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void read(kcs_buffer handle, std::uint64_t offset, void* dst, std::uint64_t bytes);

    // Host address of [offset, offset + bytes) of a buffer, after the same
    // checks as write and read.
    std::byte* locate(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes);

private:
    std::vector<std::byte>& find(kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes);

    std::unordered_map<kcs_buffer, std::vector<std::byte>> buffers_;
    kcs_buffer next_handle_ = 1;  // 0 is never a valid handle
    std::uint64_t slack_;         // bytes held past each buffer's size
};

// "host CPU (<model name from /proc/cpuinfo>)", or "host CPU" without one.
std::string host_device_name();

}  // namespace kcs::device
