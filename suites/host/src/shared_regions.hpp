// The harness's side of shared regions (PROTOCOL.md, "Shared regions"):
// which regions of one IsolatedAdapter are alive, where they lie in the
// harness, which worker generation has each mapped, and which the worker
// still has to unmap. Shared by the adapter and its SharedBytes, so either
// may go first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "kcs/host/shared_bytes.hpp"
#include "unique_fd.hpp"

namespace kcs::host {

struct SharedRegion {
    std::uint64_t id = 0;
    UniqueFd memfd;                     // sent to each worker generation with map_region
    std::uint64_t size = 0;             // the bytes the caller asked for: spans must lie inside these
    std::uint64_t mapped = 0;           // the memfd's size, whole pages: what the worker maps
    WorkerAccess access = WorkerAccess::read_write;
    std::uint64_t mapped_generation = 0;  // the worker generation that has it mapped; 0: none
};

// A span found wholly inside a region.
struct RegionSpan {
    SharedRegion* region = nullptr;
    std::uint64_t offset = 0;  // from the region's start
};

class SharedRegionTable {
public:
    // Registers the region whose harness mapping starts at `base`; returns its id.
    std::uint64_t add(const std::byte* base, SharedRegion region);
    // The region starting at `base` is gone: a worker that maps it unmaps it
    // before its next call.
    void remove(const std::byte* base);

    // The live region holding all of [data, data + size), if one does and
    // the worker may do what the transfer needs (write into it for a read).
    // Empty spans lie in no region.
    std::optional<RegionSpan> find(const std::byte* data, std::uint64_t size, bool worker_writes);
    SharedRegion* by_id(std::uint64_t id);

    // (region id, generation that maps it) of every region that died while
    // mapped; the list is emptied.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> take_unmaps() { return std::exchange(unmaps_, {}); }

private:
    std::map<std::uintptr_t, SharedRegion> regions_;  // by the address of their first byte in the harness
    std::vector<std::pair<std::uint64_t, std::uint64_t>> unmaps_;
    std::uint64_t next_id_ = 1;
};

}  // namespace kcs::host
