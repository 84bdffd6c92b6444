// SharedBytes: harness memory that the adapter's worker can map, so bulk
// data moves between the two without crossing the worker channel
// (PROTOCOL.md, "Shared regions"). IsolatedAdapter::shared() makes one;
// write() and read() of a span that lies wholly inside a live region then
// send only the region id, offset and size, and the worker's adapter reads
// or writes the mapping itself.
//
// The memory belongs to the harness: it outlives worker crashes and
// restarts (a fresh worker maps it again before its first use) and even
// the IsolatedAdapter that made it. Destroying a region unmaps it here at
// once and in the worker before the adapter's next call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace kcs::host {

// What the worker may do with a region. read_only is enforced by the
// kernel, not by the worker's good will: the memfd is sealed against
// writable mappings (F_SEAL_FUTURE_WRITE) once the harness has mapped it,
// so even a wild adapter cannot change data the harness keeps as its
// reference (the images it wrote). Such a region serves write() only;
// read() into it takes the inline path.
enum class WorkerAccess { read_only, read_write };

class SharedRegionTable;  // private to kcs_host: the live regions of one IsolatedAdapter

class SharedBytes {
public:
    SharedBytes() = default;  // no region: an empty span
    SharedBytes(SharedBytes&& other) noexcept;
    SharedBytes& operator=(SharedBytes&& other) noexcept;
    SharedBytes(const SharedBytes&) = delete;
    SharedBytes& operator=(const SharedBytes&) = delete;
    ~SharedBytes();

    std::span<std::byte> bytes() const noexcept { return {data_, size_}; }
    std::byte* data() const noexcept { return data_; }
    std::uint64_t size() const noexcept { return size_; }
    std::uint64_t id() const noexcept { return id_; }  // 0: no region
    WorkerAccess worker_access() const noexcept { return access_; }

private:
    friend class IsolatedAdapter;
    SharedBytes(std::shared_ptr<SharedRegionTable> table, std::uint64_t size, WorkerAccess access);
    void reset() noexcept;
    // The same region serving `size` bytes (at most its mapped pages).
    void resize_within_pages(std::uint64_t size);
    std::uint64_t mapped() const noexcept { return mapped_; }

    std::shared_ptr<SharedRegionTable> table_;
    std::uint64_t id_ = 0;
    std::byte* data_ = nullptr;
    std::uint64_t size_ = 0;     // what was asked for
    std::uint64_t mapped_ = 0;   // whole pages (at least one)
    WorkerAccess access_ = WorkerAccess::read_write;
};

}  // namespace kcs::host
