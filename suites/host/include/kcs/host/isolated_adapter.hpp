// IsolatedAdapter: an adapter running in its own kcs-worker process. Every
// call is a request over the worker channel (suites/host/PROTOCOL.md) with
// a deadline. A crash, hang, unexpected exit or garbled answer costs the
// call it happened in: that call returns crash, timeout or protocol_error,
// the worker is killed and reaped, and the next call starts a fresh worker
// and opens the adapter again with the same options.
//
// Buffers live in the worker, so a fresh worker means a new generation():
// handles of the old one are refused (stale_buffer) without reaching the
// adapter, and the harness allocates again.
//
// Bulk data: write() and read() of a span that lies wholly inside a live
// region from shared() move no bytes over the channel; the worker's adapter
// reads or writes the region itself (PROTOCOL.md, "Shared regions"). Any
// other span, one that only partly overlaps a region included, travels
// inline as before: the result is the same, only slower.
//
// Not thread-safe: one thread at a time per instance. Separate instances
// may be used from separate threads. The process must not set SIGCHLD to
// SIG_IGN: that reaps workers automatically and hides how they ended.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kcs/host/call_result.hpp"
#include "kcs/host/operation.hpp"
#include "kcs/host/shared_bytes.hpp"

namespace kcs::host {

struct IsolationOptions {
    std::vector<std::string> adapter_options;         // "key=value", passed to open()
    std::chrono::milliseconds call_timeout{30'000};   // every call but the start
    std::chrono::milliseconds start_timeout{60'000};  // load + open: may initialise a device
    // Restart the worker before a call once its resident memory exceeds
    // this, at a moment when it holds no buffers (so the restart loses
    // nothing). 0: no limit.
    std::uint64_t rss_limit_bytes = 0;
    std::filesystem::path worker;  // kcs-worker to run; empty: find_worker_executable()
};

// Where kcs-worker is: $KCS_WORKER if set; else kcs-worker next to the
// running executable; else the build tree's bin/kcs-worker. Throws
// AdapterError (worker_failed) for a KCS_WORKER that does not exist or
// when neither of the others does.
std::filesystem::path find_worker_executable(const std::filesystem::path& adapter);

class WorkerProcess;

// A transfer of one trip (IsolatedAdapter::write_run_read).
struct TripWrite {
    BufferHandle buffer;
    std::uint64_t offset = 0;
    std::span<const std::byte> bytes;
};
struct TripRead {
    BufferHandle buffer;
    std::uint64_t offset = 0;
    std::span<std::byte> bytes;
};

// How a trip went: the run's answer, and where the trip ended early if it
// did (a transfer that failed, or the call in which the worker was lost).
struct TripResult {
    enum class Stage { write, run, read };
    struct Stop {
        Stage stage = Stage::run;
        std::size_t index = 0;  // which write or read
        CallResult result;
    };
    CallResult run;             // default (ok) when the trip ended before the run
    std::optional<Stop> stopped;
};

class IsolatedAdapter {
public:
    // Starts a worker for the adapter at `adapter` (see resolve_adapter for
    // names) and opens it. Throws AdapterError with the loader's message
    // (no such file, not a shared library, ABI mismatch, open failed: ...,
    // worker_failed) when that fails.
    IsolatedAdapter(std::filesystem::path adapter, IsolationOptions options = {});
    ~IsolatedAdapter();  // closes the adapter and ends the worker
    IsolatedAdapter(const IsolatedAdapter&) = delete;
    IsolatedAdapter& operator=(const IsolatedAdapter&) = delete;

    const std::filesystem::path& path() const noexcept { return path_; }
    const std::string& name() const noexcept { return name_; }  // the table's name
    std::uint32_t abi_version() const noexcept { return abi_version_; }  // the negotiated ABI version
    const IsolationOptions& options() const noexcept { return options_; }
    // 1 for the first worker, one more for each fresh one.
    std::uint64_t generation() const noexcept { return generation_; }
    std::optional<pid_t> worker_pid() const noexcept;  // none while no worker runs
    std::uint64_t memory_restarts() const noexcept { return memory_restarts_; }
    // Resident memory of the worker (from /proc/PID/statm), if one runs.
    std::optional<std::uint64_t> worker_resident_bytes() const;
    void set_call_timeout(std::chrono::milliseconds timeout) noexcept { options_.call_timeout = timeout; }

    CallValue<AdapterInfo> info();
    CallResult supports(const Operation& op);  // buffer handles are not checked
    CallValue<BufferHandle> alloc(std::uint64_t bytes);
    CallResult release(BufferHandle buffer);
    CallResult write(BufferHandle buffer, std::uint64_t offset, std::span<const std::byte> bytes);
    CallResult read(BufferHandle buffer, std::uint64_t offset, std::span<std::byte> bytes);

    // `bytes` of harness memory (zero-filled) that the worker can map; see
    // SharedBytes. WorkerAccess::read_only regions serve write() only. Makes
    // no call: the worker maps the region before the first transfer that
    // uses it (again in each worker generation). Throws std::system_error
    // when the memory cannot be had.
    SharedBytes shared(std::uint64_t bytes, WorkerAccess access = WorkerAccess::read_write);
    // A region of `bytes` whose every byte the caller will write before it
    // reads one (its contents are unspecified): one given back by
    // keep_shared() when one of this access and of at least those bytes but
    // under twice as many pages is kept, else shared(). A kept region needs
    // no new memory, no page faulted in, no map_region: the guarded runs of
    // one instance after another reuse their images so.
    SharedBytes reused_shared(std::uint64_t bytes, WorkerAccess access);
    // Keeps `region` for reused_shared(), while the kept regions map at most
    // kKeptSharedBytes; the least recently kept beyond that are destroyed.
    void keep_shared(SharedBytes region);
    static constexpr std::uint64_t kKeptSharedBytes = std::uint64_t{256} << 20;
    // Writes and reads that went through a shared region, since construction.
    std::uint64_t shared_transfers() const noexcept { return shared_transfers_; }
    CallResult run(const Operation& op);

    // The writes, the run and the reads of one guarded run, as the calls
    // write()... run() read()... would make them: a failed write ends the
    // trip; the reads follow whatever the run answered, unless it lost the
    // device; a failed read ends the trip. When every span lies in a shared
    // region (read spans in read_write ones) the calls travel as one
    // request and one reply (PROTOCOL.md, "Sequences"), each still timed
    // against call_timeout on its own and a crash or hang still named by
    // the call it happened in; otherwise they are made one by one.
    TripResult write_run_read(std::span<const TripWrite> writes, const Operation& op, std::span<const TripRead> reads);
    // Trips that travelled as one request, since construction.
    std::uint64_t sequences() const noexcept { return sequences_; }

    // Closes the adapter and lets the worker exit. A later call starts a
    // fresh worker (a new generation).
    CallResult close();

    // Another IsolatedAdapter of the same library and options, in a worker
    // of its own, made on first use and kept while this one lives: the
    // concurrent load of C-ORD-02 runs on it while this one is measured.
    // Not thread-safe itself; once made, each may be used from its own thread.
    IsolatedAdapter& companion();

private:
    struct Request;
    struct Reply;
    struct StartFailure;
    using Deadline = std::chrono::steady_clock::time_point;

    std::optional<StartFailure> start_worker();
    CallResult ensure_worker();
    CallResult call(const Request& request, std::span<const BufferHandle> buffers, Reply& reply);
    CallResult exchange(const Request& request, Deadline deadline, std::chrono::milliseconds budget, Reply& reply);
    CallResult receive_reply(std::uint64_t call_id, const Request& request, Deadline deadline,
                             std::chrono::milliseconds budget, Reply& reply);
    CallResult worker_died(std::string_view during);
    CallResult worker_timed_out(std::string_view during, std::chrono::milliseconds budget);
    CallResult worker_garbled(std::string_view during, std::string_view what);
    void end_worker();
    std::optional<CallResult> stale(std::span<const BufferHandle> buffers) const;
    CallResult sync_regions(const Request& request);
    TripResult trip_call_by_call(std::span<const TripWrite> writes, const Operation& op,
                                 std::span<const TripRead> reads);
    // A reply's origin and status as the call's result (a bad request kills the worker).
    CallResult answer_of(std::uint32_t origin, kcs_status status, const std::string& message, const std::string& what);
    CallResult transfer_in_region(bool is_write, BufferHandle buffer, std::uint64_t offset, std::uint64_t size,
                                  std::uint64_t region, std::uint64_t region_offset);

    std::filesystem::path path_;
    IsolationOptions options_;
    std::string name_;
    std::uint32_t abi_version_ = 0;
    std::unique_ptr<WorkerProcess> worker_;
    std::uint64_t generation_ = 0;
    std::uint64_t next_call_id_ = 1;
    std::uint64_t live_buffers_ = 0;
    std::uint64_t memory_restarts_ = 0;
    std::shared_ptr<SharedRegionTable> regions_;
    std::deque<SharedBytes> kept_shared_;  // for reused_shared(), the most recently kept last
    std::uint64_t shared_transfers_ = 0;
    std::uint64_t sequences_ = 0;
    SharedBytes progress_;  // where the worker says which step of a sequence runs since when
    std::unique_ptr<IsolatedAdapter> companion_;
};

}  // namespace kcs::host
