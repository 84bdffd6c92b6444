#include "worker_server.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "channel_io.hpp"
#include "frames.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_library.hpp"
#include "operation_codec.hpp"
#include "payload_codec.hpp"

namespace kcs::host {

namespace {

// What goes back for one request.
struct Answer {
    ReplyOrigin origin = ReplyOrigin::adapter;
    kcs_status status = KCS_OK;
    std::string message;
    PayloadWriter fields;
    std::span<const std::byte> bulk;  // read's data, after the fields
};

Answer bad_request(std::string why) {
    Answer a;
    a.origin = ReplyOrigin::bad_request;
    a.status = KCS_INVALID_ARGUMENT;
    a.message = std::move(why);
    return a;
}

Answer abi_violation(kcs_status status, std::string why) {
    Answer a;
    a.origin = ReplyOrigin::abi_violation;
    a.status = status;
    a.message = std::move(why);
    return a;
}

bool send_answer(int channel, std::uint64_t call_id, const Answer& a) {
    const auto message = std::string_view(a.message).substr(0, max_message_size);
    ReplyHeader header;
    header.origin = a.origin;
    header.call_id = call_id;
    header.status = a.status;
    header.message_size = static_cast<std::uint32_t>(message.size());
    header.payload_size = a.fields.bytes().size() + a.bulk.size();
    const auto head = encode(header);
    return send_all(channel, head, no_deadline) == IoResult::ok &&
           send_all(channel, std::as_bytes(std::span(message)), no_deadline) == IoResult::ok &&
           send_all(channel, a.fields.bytes(), no_deadline) == IoResult::ok &&
           send_all(channel, a.bulk, no_deadline) == IoResult::ok;
}

// Memory for bulk data (request payloads, read's data), kept from call to
// call: a fresh allocation per transfer costs a page fault per 4 KiB, about
// as much as the copy itself. Not zero-filled, since it is always
// overwritten, and not kept above 64 MiB so that one large transfer does
// not inflate the worker for good.
class ScratchBuffer {
public:
    // Room for `bytes` bytes, or nullptr when memory is short.
    std::byte* get(std::uint64_t bytes) {
        constexpr std::uint64_t keep = std::uint64_t{64} << 20;
        if (!memory_ || bytes > size_ || (size_ > keep && bytes <= keep)) {
            memory_.reset();
            size_ = 0;
            memory_.reset(new (std::nothrow) std::byte[bytes == 0 ? 1 : bytes]);
            if (!memory_) return nullptr;
            size_ = bytes;
        }
        return memory_.get();
    }

private:
    std::unique_ptr<std::byte[]> memory_;
    std::uint64_t size_ = 0;
};

// A harness region mapped here (PROTOCOL.md, "Shared regions").
struct MappedRegion {
    std::byte* base = nullptr;
    std::uint64_t size = 0;
    bool writable = false;
};

// One open adapter instance and the requests on it.
class Session {
public:
    explicit Session(const kcs_adapter_api& api) : api_(api) {}
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    ~Session() {
        if (adapter_) api_.close(adapter_);
        for (const auto& [id, region] : regions_) ::munmap(region.base, region.size);
    }

    // `passed`: the descriptor that came with the request, if any.
    Answer handle(RequestType type, PayloadReader& in, UniqueFd passed) {
        if (passed && type != RequestType::map_region)
            return bad_request(std::string("a descriptor came with a ") + std::string(to_string(type)) +
                               " request; only map_region carries one");
        if (type == RequestType::open) return open(in);
        if (!adapter_) return bad_request(std::string(to_string(type)) + " before open");
        switch (type) {
            case RequestType::map_region: return map_region(in, std::move(passed));
            case RequestType::unmap_region: return unmap_region(in);
            case RequestType::write_region: {
                const kcs_buffer buffer = in.u64();
                const auto offset = in.u64();
                const auto data = region_bytes(in, false);
                in.expect_end();
                return status_answer(api_.write(adapter_, buffer, offset, data.data(), data.size()));
            }
            case RequestType::read_region: {
                const kcs_buffer buffer = in.u64();
                const auto offset = in.u64();
                const auto data = region_bytes(in, true);
                in.expect_end();
                return status_answer(api_.read(adapter_, buffer, offset, data.data(), data.size()));
            }
            case RequestType::info: return info(in);
            case RequestType::supports: {
                DecodedOperation op(in);
                in.expect_end();
                return status_answer(api_.supports(adapter_, &op.op()));
            }
            case RequestType::alloc: return alloc(in);
            case RequestType::release: {
                const kcs_buffer buffer = in.u64();
                in.expect_end();
                return status_answer(api_.release(adapter_, buffer));
            }
            case RequestType::write: {
                const kcs_buffer buffer = in.u64();
                const auto offset = in.u64();
                const auto data = in.rest();
                return status_answer(api_.write(adapter_, buffer, offset, data.data(), data.size()));
            }
            case RequestType::read: return read(in);
            case RequestType::run: {
                DecodedOperation op(in);
                in.expect_end();
                return status_answer(api_.run(adapter_, &op.op()));
            }
            case RequestType::sequence: return sequence(in);
            case RequestType::close:
                api_.close(std::exchange(adapter_, nullptr));
                return {};
            case RequestType::open: break;
        }
        return bad_request("unknown request");
    }

private:
    Answer status_answer(kcs_status status) const {
        Answer a;
        a.status = status;
        if (status != KCS_OK) a.message = error_text(adapter_);
        return a;
    }

    std::string error_text(kcs_adapter* adapter) const {
        const char* text = api_.last_error(adapter);
        return text ? text : "";
    }

    Answer open(PayloadReader& in) {
        if (adapter_) return bad_request("open on an open adapter");
        const auto count = in.u32();
        if (count > in.remaining() / 4) return bad_request("option count larger than the payload can hold");
        std::vector<std::string> options;
        options.reserve(count);
        for (std::uint32_t i = 0; i < count; ++i) options.push_back(in.string());
        in.expect_end();
        std::vector<const char*> pointers;
        for (const auto& o : options) pointers.push_back(o.c_str());
        kcs_adapter* adapter = nullptr;
        Answer a;
        a.status = api_.open(pointers.data(), count, &adapter);
        if (a.status != KCS_OK) {
            a.message = error_text(nullptr);
            if (adapter) api_.close(adapter);
        } else if (!adapter) {
            return abi_violation(a.status, "open returned KCS_OK but no adapter instance");
        }
        adapter_ = a.status == KCS_OK ? adapter : nullptr;
        return a;
    }

    Answer info(PayloadReader& in) {
        in.expect_end();
        kcs_info info{};
        info.struct_size = sizeof(kcs_info);
        Answer a = status_answer(api_.info(adapter_, &info));
        if (a.status != KCS_OK) return a;
        const std::pair<const char*, const char*> fields[] = {
            {"adapter_name", info.adapter_name}, {"adapter_version", info.adapter_version},
            {"vendor", info.vendor},             {"device", info.device},
            {"driver_version", info.driver_version}, {"notes", info.notes},
        };
        for (const auto& [name, value] : fields) {
            if (!value) return abi_violation(a.status, std::string("info left ") + name + " NULL");
            a.fields.string(value);
        }
        return a;
    }

    Answer alloc(PayloadReader& in) {
        const auto bytes = in.u64();
        in.expect_end();
        kcs_buffer buffer = 0;
        Answer a = status_answer(api_.alloc(adapter_, bytes, &buffer));
        if (a.status == KCS_OK && buffer == 0)
            return abi_violation(a.status, "alloc returned KCS_OK with buffer handle 0, which is never valid");
        if (a.status == KCS_OK) a.fields.u64(buffer);
        return a;
    }

    Answer read(PayloadReader& in) {
        const kcs_buffer buffer = in.u64();
        const auto offset = in.u64();
        const auto bytes = in.u64();
        in.expect_end();
        std::byte* data = read_data_.get(bytes);
        if (!data) {
            Answer a;
            a.status = KCS_OUT_OF_MEMORY;
            a.message = "kcs-worker cannot hold " + std::to_string(bytes) + " bytes for the read";
            return a;
        }
        Answer a = status_answer(api_.read(adapter_, buffer, offset, data, bytes));
        if (a.status == KCS_OK) a.bulk = std::span<const std::byte>(data, bytes);
        return a;
    }

    // map_region: u64 region, u64 size, u8 writable, and the memfd. The size
    // is checked against the memfd's, so that no access through the mapping
    // can fault (the harness seals the memfd against shrinking).
    Answer map_region(PayloadReader& in, UniqueFd memfd) {
        const auto id = in.u64();
        const auto size = in.u64();
        const auto writable = in.u8();
        in.expect_end();
        const std::string name = "region " + std::to_string(id);
        if (!memfd) return bad_request("map_region of " + name + " came without a descriptor (SCM_RIGHTS)");
        if (id == 0 || regions_.contains(id)) return bad_request("map_region: " + name + " is already mapped or 0");
        if (size == 0 || writable > 1) return bad_request("map_region of " + name + ": size 0 or access flag above 1");
        struct stat st{};
        if (::fstat(memfd.get(), &st) != 0 || st.st_size < 0 || static_cast<std::uint64_t>(st.st_size) < size)
            return bad_request("map_region of " + name + ": " + std::to_string(size) +
                               " bytes asked for, the descriptor holds " + std::to_string(st.st_size));
        if ((::fcntl(memfd.get(), F_GET_SEALS) & F_SEAL_SHRINK) == 0)
            return bad_request("map_region of " + name + ": the memfd is not sealed against shrinking");
        const int protection = PROT_READ | (writable ? PROT_WRITE : 0);
        void* p = ::mmap(nullptr, size, protection, MAP_SHARED, memfd.get(), 0);
        if (p == MAP_FAILED) {
            Answer a;
            a.status = KCS_OUT_OF_MEMORY;
            a.message = "kcs-worker cannot map " + name + " (" + std::to_string(size) + " bytes" +
                        (writable ? ", writable" : ", read-only") + ")";
            return a;
        }
        regions_.emplace(id, MappedRegion{static_cast<std::byte*>(p), size, writable == 1});
        return {};  // the descriptor closes here; the mapping keeps the memory
    }

    Answer unmap_region(PayloadReader& in) {
        const auto id = in.u64();
        in.expect_end();
        const auto it = regions_.find(id);
        if (it == regions_.end()) return bad_request("unmap_region: region " + std::to_string(id) + " is not mapped");
        ::munmap(it->second.base, it->second.size);
        regions_.erase(it);
        return {};
    }

    // sequence (PROTOCOL.md, "Sequences"): u64 progress region, u64 progress
    // offset, u32 count, then per step u32 type, u8 go_on, u64 size and the
    // step's request payload. Steps run in order; the first that fails ends
    // the sequence unless it asked to go on (a run whose transfers the
    // harness still wants), and KCS_DEVICE_LOST always ends it (the ABI
    // allows nothing after it but close). Before each step its index (from
    // 1) and CLOCK_MONOTONIC start go to the progress area, so the harness
    // can time each step as a call of its own and name the step a crash or
    // hang happened in. The reply's fields: u32 answered, then per answered
    // step u32 origin, i32 status, string message.
    Answer sequence(PayloadReader& in) {
        const auto progress = region_bytes(in, true, 16);
        if (reinterpret_cast<std::uintptr_t>(progress.data()) % 8 != 0)
            throw ProtocolError("the progress area of a sequence is not 8-byte aligned");
        auto* words = reinterpret_cast<std::uint64_t*>(progress.data());
        const auto count = in.u32();
        std::vector<Answer> answers;
        for (std::uint32_t i = 0; i < count; ++i) {
            const auto type = static_cast<RequestType>(in.u32());
            const bool go_on = in.u8() != 0;
            PayloadReader step(in.take(in.u64()));
            if (type != RequestType::write_region && type != RequestType::read_region && type != RequestType::run)
                throw ProtocolError("a sequence holds write_region, read_region and run steps, not " +
                                    std::string(to_string(type)));
            std::atomic_ref<std::uint64_t>(words[1]).store(monotonic_ns(), std::memory_order_release);
            std::atomic_ref<std::uint64_t>(words[0]).store(i + 1, std::memory_order_release);
            answers.push_back(handle(type, step, {}));
            const Answer& last = answers.back();
            if (last.origin != ReplyOrigin::adapter) return std::move(answers.back());  // a bad step: the whole request
            if (last.status == KCS_DEVICE_LOST || (last.status != KCS_OK && !go_on)) break;
        }
        if (answers.size() == count) in.expect_end();
        Answer a;
        a.fields.u32(static_cast<std::uint32_t>(answers.size()));
        for (const Answer& answer : answers) {
            a.fields.u32(static_cast<std::uint32_t>(answer.origin));
            a.fields.i32(answer.status);
            a.fields.string(std::string_view(answer.message).substr(0, max_message_size));
        }
        return a;
    }

    // The fields u64 region, u64 region offset, u64 size of write_region
    // and read_region, as the bytes they name; throws ProtocolError (a
    // bad_request) for a region that is not mapped, a range outside it, or a
    // read into a region mapped read-only.
    // `size`: given by the request's kind rather than read from it.
    std::span<std::byte> region_bytes(PayloadReader& in, bool worker_writes,
                                      std::optional<std::uint64_t> fixed_size = std::nullopt) {
        const auto id = in.u64();
        const auto offset = in.u64();
        const auto size = fixed_size ? *fixed_size : in.u64();
        const auto it = regions_.find(id);
        if (it == regions_.end()) throw ProtocolError("region " + std::to_string(id) + " is not mapped");
        const MappedRegion& region = it->second;
        if (offset > region.size || size > region.size - offset)
            throw ProtocolError(std::to_string(size) + " bytes at offset " + std::to_string(offset) + " of region " +
                                std::to_string(id) + " pass its end (" + std::to_string(region.size) + " bytes)");
        if (worker_writes && !region.writable)
            throw ProtocolError("read_region into region " + std::to_string(id) + ", which is mapped read-only");
        return {region.base + offset, size};
    }

    const kcs_adapter_api& api_;
    kcs_adapter* adapter_ = nullptr;
    ScratchBuffer read_data_;
    std::map<std::uint64_t, MappedRegion> regions_;
};

}  // namespace

int serve(int channel, const std::filesystem::path& adapter_path) {
    std::optional<AdapterLibrary> library;
    Answer hello;
    try {
        library.emplace(AdapterLibrary::load(adapter_path));
    } catch (const AdapterError& e) {
        hello.origin = ReplyOrigin::load_error;
        hello.status = static_cast<kcs_status>(e.problem());
        hello.message = e.detail();
    }
    hello.fields.u32(protocol_version);
    hello.fields.string(library ? library->api().name : "");
    hello.fields.u32(library ? library->abi_version() : 0);
    if (!send_answer(channel, 0, hello)) return 2;
    if (!library) return 1;

    Session session(library->api());
    ScratchBuffer payload_memory;
    for (;;) {
        std::array<std::byte, request_header_size> head;
        UniqueFd passed;  // map_region's memfd travels with its header
        const auto got = receive_exact_with_fd(channel, head, no_deadline, passed);
        if (got == IoResult::closed) return 0;  // the harness is done (or gone)
        if (got != IoResult::ok) return 2;
        RequestHeader request;
        try {
            request = decode_request_header(head);
        } catch (const ProtocolError& e) {
            // Out of step with the stream: nothing after this can be trusted.
            send_answer(channel, 0, bad_request(e.what()));
            return 2;
        }
        std::byte* memory = payload_memory.get(request.payload_size);
        if (!memory) return 2;  // the harness sees the exit and records the call as a crash
        const std::span<std::byte> payload(memory, request.payload_size);
        if (receive_exact(channel, payload, no_deadline) != IoResult::ok) return 2;

        PayloadReader in(payload);
        Answer answer;
        try {
            answer = session.handle(request.type, in, std::move(passed));
        } catch (const ProtocolError& e) {
            answer = bad_request(e.what());
        }
        if (!send_answer(channel, request.call_id, answer)) return 2;
        if (request.type == RequestType::close && answer.origin == ReplyOrigin::adapter) return 0;
    }
}

}  // namespace kcs::host
