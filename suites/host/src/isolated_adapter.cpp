#include "kcs/host/isolated_adapter.hpp"

#include <atomic>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "channel_io.hpp"
#include "frames.hpp"
#include "kcs/host/adapter_error.hpp"
#include "operation_codec.hpp"
#include "payload_codec.hpp"
#include "process_memory.hpp"
#include "shared_regions.hpp"
#include "worker_process.hpp"

namespace kcs::host {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a worker whose channel closed gets to finish dying, so that its
// exit status (which signal) can be reported rather than our SIGKILL.
constexpr milliseconds exit_grace{2000};

// Reply fields other than read's data are a few strings at most.
constexpr std::uint64_t max_reply_fields = 1 << 20;

CallResult lost(CallOutcome outcome, std::string message, std::optional<WorkerExit> exit = std::nullopt) {
    return {outcome, KCS_DEVICE_LOST, std::move(message), exit};
}

std::string describe_op(std::string_view call, const Operation& op) {
    std::string text = std::string(call) + "(" + op.name;
    if (op.function) text += "/" + *op.function;
    return text + ")";
}

// A word of a sequence's progress area, which the worker stores to while
// the harness reads it: an aligned 8-byte load, then an acquire fence
// (GCC 12 misreads __atomic_load on memory it did not see allocated).
std::uint64_t load_progress(const std::uint64_t& word) {
    const std::uint64_t value = *static_cast<const volatile std::uint64_t*>(&word);
    std::atomic_thread_fence(std::memory_order_acquire);
    return value;
}

// write_region or read_region: its fields into `fields`; returns the call's name.
std::string encode_region_transfer(PayloadWriter& fields, bool is_write, std::uint64_t buffer, std::uint64_t offset,
                                   std::uint64_t size, std::uint64_t region, std::uint64_t region_offset) {
    for (const std::uint64_t v : {buffer, offset, region, region_offset, size}) fields.u64(v);
    return std::string(is_write ? "write(" : "read(") + std::to_string(size) + " bytes " +
           (is_write ? "from" : "into") + " shared region " + std::to_string(region) + ")";
}

void collect_buffers(const std::vector<Tensor>& tensors, std::vector<BufferHandle>& out) {
    for (const auto& t : tensors) out.push_back(t.buffer);
}

}  // namespace

struct IsolatedAdapter::Request {
    RequestType type{};
    std::string what;                 // names the call in messages: "run(elementwise/add)"
    PayloadWriter fields;
    std::span<const std::byte> bulk;  // write: the data, sent after the fields
    std::span<std::byte> read_into;   // read: where the data lands
    std::vector<std::uint64_t> regions{};  // write_region, read_region, sequence: the regions to map first, if needed
    int pass_fd = -1;                 // map_region: the memfd, sent with the header
    // sequence: each step's name, and where the worker says which step runs
    // since when (u64 step from 1, u64 CLOCK_MONOTONIC ns)
    std::vector<std::string> steps{};
    std::uint64_t* progress = nullptr;
    // Set by the exchange: whether the request went out, and the step (from
    // 1) a sequence was lost in, read once when the loss was decided.
    mutable bool sent = false;
    mutable std::size_t lost_in = 0;

    // The step of a sequence running now (0: none yet), or 0.
    std::size_t step_running() const {
        return progress ? load_progress(progress[0]) : 0;
    }
    // What a loss or hang happened during: the call, or the sequence's step
    // running now, which is recorded as lost_in.
    std::string during() const {
        if (steps.empty()) return what;
        lost_in = std::min(std::max<std::size_t>(step_running(), 1), steps.size());
        return steps[lost_in - 1] + " (step " + std::to_string(lost_in) + " of " + what + ")";
    }
};

struct IsolatedAdapter::Reply {
    ReplyHeader header;
    std::string message;
    std::vector<std::byte> payload;  // the reply's fields (read's data goes to read_into)
};

struct IsolatedAdapter::StartFailure {
    AdapterProblem problem;
    std::string detail;
    CallResult result;  // what the call that needed the fresh worker returns
};

// ---- construction and worker lifetime -------------------------------------

IsolatedAdapter::IsolatedAdapter(std::filesystem::path adapter, IsolationOptions options)
    : path_(std::move(adapter)), options_(std::move(options)), regions_(std::make_shared<SharedRegionTable>()) {
    if (options_.worker.empty()) options_.worker = find_worker_executable(path_);
    if (auto failure = start_worker()) throw AdapterError(path_, failure->problem, failure->detail);
}

IsolatedAdapter::~IsolatedAdapter() {
    try {
        close();
    } catch (...) {
        // A destructor must not throw; ~WorkerProcess still kills and reaps.
    }
}

std::optional<pid_t> IsolatedAdapter::worker_pid() const noexcept {
    if (!worker_) return std::nullopt;
    return worker_->pid();
}

std::optional<std::uint64_t> IsolatedAdapter::worker_resident_bytes() const {
    if (!worker_) return std::nullopt;
    return resident_bytes(worker_->pid());
}

std::optional<IsolatedAdapter::StartFailure> IsolatedAdapter::start_worker() {
    const auto fail = [](AdapterProblem problem, std::string detail, CallResult result) {
        return std::optional<StartFailure>(StartFailure{problem, std::move(detail), std::move(result)});
    };
    try {
        worker_ = std::make_unique<WorkerProcess>(options_.worker, path_);
    } catch (const std::system_error& e) {
        return fail(AdapterProblem::worker_failed, e.what(), lost(CallOutcome::crash, e.what()));
    }
    live_buffers_ = 0;
    const auto budget = options_.start_timeout;
    const auto deadline = Clock::now() + budget;

    // The hello frame, unasked: the loader's verdict on the library. (The
    // request only names the step for messages; nothing is sent.)
    Request hello{RequestType::open, "load", {}, {}, {}};
    Reply reply;
    if (auto r = receive_reply(0, hello, deadline, budget, reply); !r.ok())
        return fail(AdapterProblem::worker_failed, r.message, r);
    if (reply.header.origin == ReplyOrigin::load_error) {
        end_worker();
        const auto code = reply.header.status;
        const auto problem = code >= 0 && code <= static_cast<int>(AdapterProblem::worker_failed)
                                 ? static_cast<AdapterProblem>(code)
                                 : AdapterProblem::worker_failed;
        return fail(problem, reply.message, {CallOutcome::adapter_status, KCS_DEVICE_LOST, reply.message, {}});
    }
    if (reply.header.origin != ReplyOrigin::adapter || reply.header.status != KCS_OK) {
        auto r = worker_garbled("load", "a hello frame with origin " +
                                            std::to_string(static_cast<std::uint32_t>(reply.header.origin)) +
                                            " and status " + std::to_string(reply.header.status));
        return fail(AdapterProblem::worker_failed, r.message, r);
    }
    try {
        PayloadReader in(reply.payload);
        if (const auto version = in.u32(); version != protocol_version) {
            end_worker();
            const auto detail = options_.worker.string() + " speaks worker protocol " + std::to_string(version) +
                                ", this kcs speaks " + std::to_string(protocol_version) + "; rebuild both";
            return fail(AdapterProblem::worker_failed, detail, lost(CallOutcome::protocol_error, detail));
        }
        name_ = in.string();
        abi_version_ = in.u32();
    } catch (const ProtocolError& e) {
        auto r = worker_garbled("hello", e.what());
        return fail(AdapterProblem::worker_failed, r.message, r);
    }

    // Open the adapter with the options, under the same deadline.
    Request open{RequestType::open, "open", {}, {}, {}};
    open.fields.u32(static_cast<std::uint32_t>(options_.adapter_options.size()));
    for (const auto& o : options_.adapter_options) open.fields.string(o);
    auto r = exchange(open, deadline, budget, reply);
    if (r.worker_lost()) return fail(AdapterProblem::worker_failed, r.message, r);
    if (!r.ok()) {
        end_worker();
        return fail(AdapterProblem::open_failed, "open failed (" + status_name(r.status) + "): " + r.message, r);
    }
    ++generation_;
    return std::nullopt;
}

// Called before every call: retire a worker that grew too large while it
// holds nothing, and start one if there is none.
CallResult IsolatedAdapter::ensure_worker() {
    if (worker_ && options_.rss_limit_bytes > 0 && live_buffers_ == 0) {
        const auto rss = resident_bytes(worker_->pid());
        if (rss && *rss > options_.rss_limit_bytes) {
            end_worker();
            ++memory_restarts_;
        }
    }
    if (worker_) return {};
    if (auto failure = start_worker()) {
        auto r = failure->result;
        r.message = "starting a fresh worker: " + failure->detail;
        return r;
    }
    return {};
}

// Ends the worker politely: close the adapter, let the process exit.
void IsolatedAdapter::end_worker() {
    if (!worker_) return;
    worker_->stop(exit_grace);
    worker_.reset();
    live_buffers_ = 0;
}

IsolatedAdapter& IsolatedAdapter::companion() {
    if (!companion_) companion_ = std::make_unique<IsolatedAdapter>(path_, options_);
    return *companion_;
}

CallResult IsolatedAdapter::close() {
    if (!worker_) return {};
    Request request{RequestType::close, "close", {}, {}, {}};
    Reply reply;
    auto r = exchange(request, Clock::now() + options_.call_timeout, options_.call_timeout, reply);
    end_worker();  // a no-op if exchange already lost it
    return r;
}

// ---- one call --------------------------------------------------------------

std::optional<CallResult> IsolatedAdapter::stale(std::span<const BufferHandle> buffers) const {
    for (const auto& b : buffers) {
        // Handle 0 is never valid; the adapter reports it (probes may test that).
        if (b.id == 0 || (worker_ && b.generation == generation_)) continue;
        std::string why = "buffer " + std::to_string(b.id) + " belongs to worker generation " +
                          std::to_string(b.generation) + ", ";
        why += worker_ ? "the adapter now runs in generation " + std::to_string(generation_)
                       : "which has ended (crash, timeout or close)";
        return CallResult{CallOutcome::stale_buffer, KCS_INVALID_ARGUMENT, why + "; allocate it again", {}};
    }
    return std::nullopt;
}

CallResult IsolatedAdapter::call(const Request& request, std::span<const BufferHandle> buffers, Reply& reply) {
    if (auto s = stale(buffers)) return *s;
    if (auto r = ensure_worker(); !r.ok()) return r;
    if (auto s = stale(buffers)) return *s;  // a memory restart makes leftover handles stale
    if (auto r = sync_regions(request); !r.ok()) return r;
    auto r = exchange(request, Clock::now() + options_.call_timeout, options_.call_timeout, reply);
    // After KCS_DEVICE_LOST the ABI allows nothing but close.
    if (r.outcome == CallOutcome::adapter_status && r.status == KCS_DEVICE_LOST) end_worker();
    return r;
}

// Before a call on the worker: unmap the regions that died while this
// worker mapped them, and map the region the request uses if this worker
// generation has not yet. A failure is the call's.
CallResult IsolatedAdapter::sync_regions(const Request& request) {
    const auto in_context = [&](CallResult r, const std::string& step) {
        r.message = step + " before " + request.what + ": " + r.message;
        return r;
    };
    for (const auto& [id, generation] : regions_->take_unmaps()) {
        if (!worker_ || generation != generation_) continue;  // that worker is gone, and its mapping with it
        Request unmap{RequestType::unmap_region, "unmap region " + std::to_string(id), {}, {}, {}};
        unmap.fields.u64(id);
        Reply reply;
        if (auto r = exchange(unmap, Clock::now() + options_.call_timeout, options_.call_timeout, reply); !r.ok())
            return in_context(std::move(r), unmap.what);
    }
    for (const std::uint64_t id : request.regions) {
        SharedRegion* region = regions_->by_id(id);
        if (!region)
            throw std::logic_error("a transfer names shared region " + std::to_string(id) + ", which is not alive");
        if (region->mapped_generation == generation_) continue;
        Request map{RequestType::map_region, "map region " + std::to_string(region->id), {}, {}, {}};
        map.fields.u64(region->id);
        map.fields.u64(region->mapped);
        map.fields.u8(region->access == WorkerAccess::read_write ? 1 : 0);
        map.pass_fd = region->memfd.get();
        Reply reply;
        if (auto r = exchange(map, Clock::now() + options_.call_timeout, options_.call_timeout, reply); !r.ok())
            return in_context(std::move(r), map.what);
        region->mapped_generation = generation_;
    }
    return {};
}

CallResult IsolatedAdapter::exchange(const Request& request, Deadline deadline, milliseconds budget, Reply& reply) {
    const auto call_id = next_call_id_++;
    RequestHeader header;
    header.type = request.type;
    header.call_id = call_id;
    header.payload_size = request.fields.bytes().size() + request.bulk.size();
    const auto head = encode(header);
    if (request.pass_fd >= 0) {
        const auto sent = send_all_with_fd(worker_->channel(), head, request.pass_fd, deadline);
        if (sent == IoResult::timed_out) return worker_timed_out(request.what, budget);
        if (sent != IoResult::ok) return worker_died(request.what);
    }
    for (const auto part : {request.pass_fd >= 0 ? std::span<const std::byte>() : std::span<const std::byte>(head),
                            request.fields.bytes(), request.bulk}) {
        const auto sent = send_all(worker_->channel(), part, deadline);
        if (sent == IoResult::timed_out) return worker_timed_out(request.what, budget);
        if (sent != IoResult::ok) return worker_died(request.what);
    }
    request.sent = true;
    if (request.progress) {
        // A sequence: each step gets the budget of a call, from its own
        // start, which the worker stores (CLOCK_MONOTONIC, read here with the
        // same clock). A start in the future (the page scribbled on) counts
        // as now, and no sequence waits longer than a budget per step.
        const Deadline cap = Clock::now() + budget * static_cast<std::int64_t>(request.steps.size());
        for (;;) {
            const auto io = wait_readable(worker_->channel(), deadline);
            if (io != IoResult::timed_out) break;  // a reply, or a loss that receive_reply reports
            const std::size_t step = request.step_running();
            const std::uint64_t now = monotonic_ns();
            const std::uint64_t started = std::min(load_progress(request.progress[1]), now);
            const auto left = budget - std::chrono::nanoseconds(now - started);
            if (step == 0 || left <= left.zero() || Clock::now() >= cap) return worker_timed_out(request.during(), budget);
            deadline = std::min(Clock::now() + left, cap);
        }
        deadline = Clock::now() + budget;
    }
    if (auto r = receive_reply(call_id, request, deadline, budget, reply); !r.ok()) return r;
    return answer_of(static_cast<std::uint32_t>(reply.header.origin), reply.header.status, reply.message, request.what);
}

CallResult IsolatedAdapter::answer_of(std::uint32_t origin, kcs_status status, const std::string& message,
                                      const std::string& what) {
    switch (static_cast<ReplyOrigin>(origin)) {
        case ReplyOrigin::adapter:
            if (status == KCS_OK) return {};
            if (is_known_status(status)) return {CallOutcome::adapter_status, status, message, {}};
            return {CallOutcome::invalid_status, status,
                    what + " returned " + std::to_string(status) + ", which is not a kcs_status" +
                        (message.empty() ? "" : " (last_error: " + message + ")"),
                    {}};
        case ReplyOrigin::abi_violation: return {CallOutcome::invalid_status, status, message, {}};
        case ReplyOrigin::bad_request: return worker_garbled(what, "kcs-worker rejected the request: " + message);
        case ReplyOrigin::load_error: break;
    }
    return worker_garbled(what, "a load error outside the hello frame");
}

CallResult IsolatedAdapter::receive_reply(std::uint64_t call_id, const Request& request, Deadline deadline,
                                          milliseconds budget, Reply& reply) {
    const int channel = worker_->channel();
    const auto failed = [&](IoResult io) {
        return io == IoResult::timed_out ? worker_timed_out(request.during(), budget) : worker_died(request.during());
    };
    std::array<std::byte, reply_header_size> head;
    if (const auto io = receive_exact(channel, head, deadline); io != IoResult::ok) return failed(io);
    try {
        reply.header = decode_reply_header(head);
    } catch (const ProtocolError& e) {
        return worker_garbled(request.what, e.what());
    }
    const auto& h = reply.header;
    if (h.call_id != call_id)
        return worker_garbled(request.what, "reply to call " + std::to_string(h.call_id) + " while waiting for call " +
                                                std::to_string(call_id));
    reply.message.assign(h.message_size, '\0');
    if (const auto io = receive_exact(channel, std::as_writable_bytes(std::span(reply.message)), deadline);
        io != IoResult::ok)
        return failed(io);

    // read's data goes straight to the caller's memory, without a copy.
    const bool data_reply = request.type == RequestType::read && h.origin == ReplyOrigin::adapter && h.status == KCS_OK;
    const auto expected = data_reply ? request.read_into.size() : std::uint64_t{0};
    if (data_reply ? h.payload_size != expected : h.payload_size > max_reply_fields)
        return worker_garbled(request.what, "reply payload of " + std::to_string(h.payload_size) + " bytes, expected " +
                                                (data_reply ? std::to_string(expected)
                                                            : "at most " + std::to_string(max_reply_fields)));
    reply.payload.assign(data_reply ? 0 : h.payload_size, std::byte{});
    const auto into = data_reply ? request.read_into : std::span<std::byte>(reply.payload);
    if (const auto io = receive_exact(channel, into, deadline); io != IoResult::ok) return failed(io);
    return {};
}

// ---- how a worker is lost --------------------------------------------------

CallResult IsolatedAdapter::worker_died(std::string_view during) {
    const auto exit = worker_->stop(exit_grace);
    worker_.reset();
    live_buffers_ = 0;
    if (exit) return lost(CallOutcome::crash, "worker " + exit->describe() + " during " + std::string(during), exit);
    return lost(CallOutcome::protocol_error,
                "worker closed its channel during " + std::string(during) + " but kept running; killed it");
}

CallResult IsolatedAdapter::worker_timed_out(std::string_view during, milliseconds budget) {
    const auto exit = worker_->stop(milliseconds(0));
    worker_.reset();
    live_buffers_ = 0;
    // It may have died just as the deadline passed: report what happened.
    if (exit) return lost(CallOutcome::crash, "worker " + exit->describe() + " during " + std::string(during), exit);
    return lost(CallOutcome::timeout, "no answer to " + std::string(during) + " within " +
                                          std::to_string(budget.count()) + " ms; killed the worker");
}

CallResult IsolatedAdapter::worker_garbled(std::string_view during, std::string_view what) {
    worker_->stop(milliseconds(0));
    worker_.reset();
    live_buffers_ = 0;
    return lost(CallOutcome::protocol_error,
                "bad reply to " + std::string(during) + ": " + std::string(what) + "; killed the worker");
}

// ---- the adapter's functions ------------------------------------------------

CallValue<AdapterInfo> IsolatedAdapter::info() {
    Request request{RequestType::info, "info", {}, {}, {}};
    Reply reply;
    CallValue<AdapterInfo> out;
    out.result = call(request, {}, reply);
    if (!out.result.ok()) return out;
    try {
        PayloadReader in(reply.payload);
        for (auto* field : {&out.value.adapter_name, &out.value.adapter_version, &out.value.vendor,
                            &out.value.device, &out.value.driver_version, &out.value.notes})
            *field = in.string();
        in.expect_end();
    } catch (const ProtocolError& e) {
        out.result = worker_garbled("info", e.what());
    }
    return out;
}

CallResult IsolatedAdapter::supports(const Operation& op) {
    Request request{RequestType::supports, describe_op("supports", op), {}, {}, {}};
    encode_operation(op, request.fields);
    Reply reply;
    return call(request, {}, reply);
}

CallValue<BufferHandle> IsolatedAdapter::alloc(std::uint64_t bytes) {
    Request request{RequestType::alloc, "alloc(" + std::to_string(bytes) + " bytes)", {}, {}, {}};
    request.fields.u64(bytes);
    Reply reply;
    CallValue<BufferHandle> out;
    out.result = call(request, {}, reply);
    if (!out.result.ok()) return out;
    try {
        PayloadReader in(reply.payload);
        out.value = {in.u64(), generation_};
        in.expect_end();
        ++live_buffers_;
    } catch (const ProtocolError& e) {
        out.result = worker_garbled("alloc", e.what());
    }
    return out;
}

CallResult IsolatedAdapter::release(BufferHandle buffer) {
    Request request{RequestType::release, "release", {}, {}, {}};
    request.fields.u64(buffer.id);
    Reply reply;
    auto r = call(request, std::span(&buffer, 1), reply);
    if (r.ok() && live_buffers_ > 0) --live_buffers_;
    return r;
}

SharedBytes IsolatedAdapter::shared(std::uint64_t bytes, WorkerAccess access) {
    return SharedBytes(regions_, bytes, access);
}

SharedBytes IsolatedAdapter::reused_shared(std::uint64_t bytes, WorkerAccess access) {
    // The smallest kept region that serves: most reuse the same layout.
    auto best = kept_shared_.end();
    for (auto it = kept_shared_.begin(); it != kept_shared_.end(); ++it) {
        const std::uint64_t mapped = it->mapped();
        if (it->worker_access() != access || mapped < bytes || (bytes > 0 && mapped / 2 >= bytes)) continue;
        if (best == kept_shared_.end() || mapped < best->mapped()) best = it;
    }
    if (best == kept_shared_.end()) return shared(bytes, access);
    SharedBytes region = std::move(*best);
    kept_shared_.erase(best);
    region.resize_within_pages(bytes);
    return region;
}

void IsolatedAdapter::keep_shared(SharedBytes region) {
    if (region.id() == 0 || region.table_ != regions_) return;  // no region, or another adapter's: destroyed here
    kept_shared_.push_back(std::move(region));
    std::uint64_t kept = 0;
    for (const SharedBytes& r : kept_shared_) kept += r.mapped();
    while (kept > kKeptSharedBytes) {
        kept -= kept_shared_.front().mapped();
        kept_shared_.pop_front();
    }
}

// write_region, read_region: the request names the bytes by region, offset
// and size; the reply carries none.
CallResult IsolatedAdapter::transfer_in_region(bool is_write, BufferHandle buffer, std::uint64_t offset,
                                               std::uint64_t size, std::uint64_t region,
                                               std::uint64_t region_offset) {
    Request request{is_write ? RequestType::write_region : RequestType::read_region, {}, {}, {}, {}};
    request.what = encode_region_transfer(request.fields, is_write, buffer.id, offset, size, region, region_offset);
    request.regions = {region};
    Reply reply;
    auto r = call(request, std::span(&buffer, 1), reply);
    if (r.ok()) ++shared_transfers_;
    return r;
}

CallResult IsolatedAdapter::write(BufferHandle buffer, std::uint64_t offset, std::span<const std::byte> bytes) {
    if (const auto at = regions_->find(bytes.data(), bytes.size(), false))
        return transfer_in_region(true, buffer, offset, bytes.size(), at->region->id, at->offset);
    Request request{RequestType::write, "write(" + std::to_string(bytes.size()) + " bytes)", {}, bytes, {}};
    request.fields.u64(buffer.id);
    request.fields.u64(offset);
    Reply reply;
    return call(request, std::span(&buffer, 1), reply);
}

CallResult IsolatedAdapter::read(BufferHandle buffer, std::uint64_t offset, std::span<std::byte> bytes) {
    if (const auto at = regions_->find(bytes.data(), bytes.size(), true))
        return transfer_in_region(false, buffer, offset, bytes.size(), at->region->id, at->offset);
    Request request{RequestType::read, "read(" + std::to_string(bytes.size()) + " bytes)", {}, {}, bytes};
    request.fields.u64(buffer.id);
    request.fields.u64(offset);
    request.fields.u64(bytes.size());
    Reply reply;
    return call(request, std::span(&buffer, 1), reply);
}

CallResult IsolatedAdapter::run(const Operation& op) {
    Request request{RequestType::run, describe_op("run", op), {}, {}, {}};
    encode_operation(op, request.fields);
    std::vector<BufferHandle> buffers;
    collect_buffers(op.inputs, buffers);
    collect_buffers(op.outputs, buffers);
    Reply reply;
    return call(request, buffers, reply);
}

// ---- a guarded run's calls in one trip ---------------------------------------

TripResult IsolatedAdapter::trip_call_by_call(std::span<const TripWrite> writes, const Operation& op,
                                              std::span<const TripRead> reads) {
    TripResult out;
    for (std::size_t i = 0; i < writes.size(); ++i)
        if (auto r = write(writes[i].buffer, writes[i].offset, writes[i].bytes); !r.ok()) {
            out.stopped = TripResult::Stop{TripResult::Stage::write, i, std::move(r)};
            return out;
        }
    out.run = run(op);
    if (out.run.worker_lost()) out.stopped = TripResult::Stop{TripResult::Stage::run, 0, out.run};
    if (out.run.worker_lost() || out.run.status == KCS_DEVICE_LOST) return out;
    for (std::size_t i = 0; i < reads.size(); ++i)
        if (auto r = read(reads[i].buffer, reads[i].offset, reads[i].bytes); !r.ok()) {
            out.stopped = TripResult::Stop{TripResult::Stage::read, i, std::move(r)};
            return out;
        }
    return out;
}

TripResult IsolatedAdapter::write_run_read(std::span<const TripWrite> writes, const Operation& op,
                                           std::span<const TripRead> reads) {
    // Where each transfer lies; one outside a region sends the trip call by call.
    std::vector<RegionSpan> at;
    for (const TripWrite& w : writes) {
        const auto found = regions_->find(w.bytes.data(), w.bytes.size(), false);
        if (!found) return trip_call_by_call(writes, op, reads);
        at.push_back(*found);
    }
    for (const TripRead& r : reads) {
        const auto found = regions_->find(r.bytes.data(), r.bytes.size(), true);
        if (!found) return trip_call_by_call(writes, op, reads);
        at.push_back(*found);
    }
    if (progress_.size() == 0) progress_ = shared(16);
    {
        // The progress area first: a worker that cannot map it gets the calls
        // one by one (as does one that will not start: the first call reports that).
        Request map_progress{RequestType::sequence, "sequence", {}, {}, {}};
        map_progress.regions = {progress_.id()};
        if (!worker_ || !sync_regions(map_progress).ok()) return trip_call_by_call(writes, op, reads);
    }

    Request request{RequestType::sequence, describe_op("sequence", op), {}, {}, {}};
    request.fields.u64(progress_.id());
    request.fields.u64(0);
    request.fields.u32(static_cast<std::uint32_t>(writes.size() + 1 + reads.size()));
    std::vector<BufferHandle> buffers;
    const auto add_step = [&](RequestType type, bool go_on, const PayloadWriter& step, std::string what) {
        request.fields.u32(static_cast<std::uint32_t>(type));
        request.fields.u8(go_on ? 1 : 0);
        request.fields.u64(step.bytes().size());
        request.fields.raw(step.bytes());
        request.steps.push_back(std::move(what));
    };
    const auto add_transfer = [&](bool is_write, BufferHandle buffer, std::uint64_t offset, std::uint64_t size,
                                  const RegionSpan& span) {
        PayloadWriter step;
        std::string what = encode_region_transfer(step, is_write, buffer.id, offset, size, span.region->id, span.offset);
        add_step(is_write ? RequestType::write_region : RequestType::read_region, false, step, std::move(what));
        buffers.push_back(buffer);
        request.regions.push_back(span.region->id);
    };
    for (std::size_t i = 0; i < writes.size(); ++i)
        add_transfer(true, writes[i].buffer, writes[i].offset, writes[i].bytes.size(), at[i]);
    PayloadWriter run_step;
    encode_operation(op, run_step);
    add_step(RequestType::run, true, run_step, describe_op("run", op));  // the reads follow a failed run
    collect_buffers(op.inputs, buffers);
    collect_buffers(op.outputs, buffers);
    for (std::size_t i = 0; i < reads.size(); ++i)
        add_transfer(false, reads[i].buffer, reads[i].offset, reads[i].bytes.size(), at[writes.size() + i]);
    request.regions.push_back(progress_.id());
    request.progress = reinterpret_cast<std::uint64_t*>(progress_.data());
    *static_cast<volatile std::uint64_t*>(&request.progress[0]) = 0;

    // Where step k (from 1) belongs; the transfers before it completed.
    TripResult out;
    const auto stop_at = [&](std::size_t step, CallResult r) {
        const std::size_t k = std::min(std::max<std::size_t>(step, 1), request.steps.size()) - 1;
        shared_transfers_ += k > writes.size() ? k - 1 : k;
        if (k < writes.size()) out.stopped = TripResult::Stop{TripResult::Stage::write, k, std::move(r)};
        else if (k == writes.size()) out.stopped = TripResult::Stop{TripResult::Stage::run, 0, out.run = std::move(r)};
        else out.stopped = TripResult::Stop{TripResult::Stage::read, k - writes.size() - 1, std::move(r)};
    };
    Reply reply;
    auto r = call(request, buffers, reply);
    // Refused before it went out (a stale handle, a region that would not
    // map): the calls one by one meet the same refusal at the call it concerns.
    if (!r.ok() && !request.sent && !r.worker_lost()) return trip_call_by_call(writes, op, reads);
    if (!r.ok()) {
        stop_at(request.lost_in ? request.lost_in : request.step_running(), std::move(r));
        return out;
    }
    std::uint32_t k = 0;
    try {
        PayloadReader in(reply.payload);
        const std::uint32_t answered = in.u32();
        if (answered == 0 || answered > request.steps.size())
            throw ProtocolError(std::to_string(answered) + " steps answered of " + std::to_string(request.steps.size()));
        for (; k < answered; ++k) {
            const auto origin = in.u32();
            const auto status = in.i32();
            auto result = answer_of(origin, status, in.string(), request.steps[k]);
            // After KCS_DEVICE_LOST, in any call, the ABI allows nothing but close.
            if (result.outcome == CallOutcome::adapter_status && result.status == KCS_DEVICE_LOST) end_worker();
            if (k == writes.size() && !result.worker_lost()) {
                out.run = std::move(result);
                if (out.run.status == KCS_DEVICE_LOST) return out;
                continue;
            }
            if (!result.ok()) {
                stop_at(k + 1, std::move(result));
                return out;
            }
        }
        in.expect_end();
        if (answered < request.steps.size())
            throw ProtocolError("the worker ended the sequence after step " + std::to_string(answered) +
                                ", which it answered without a failure that ends it");
        ++sequences_;
        shared_transfers_ += request.steps.size() - 1;
    } catch (const ProtocolError& e) {
        stop_at(k + 1, worker_garbled(request.what, e.what()));
    }
    return out;
}

}  // namespace kcs::host
