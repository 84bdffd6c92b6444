#include "frames.hpp"

#include <time.h>

#include <algorithm>
#include <string>

#include "payload_codec.hpp"

namespace kcs::host {

namespace {

template <std::size_t N>
std::array<std::byte, N> to_array(const PayloadWriter& w) {
    std::array<std::byte, N> out{};
    std::copy_n(w.bytes().begin(), N, out.begin());
    return out;
}

std::string hex(std::uint32_t v) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string s = "0x";
    for (int shift = 28; shift >= 0; shift -= 4) s += digits[(v >> shift) & 0xfu];
    return s;
}

}  // namespace

std::uint64_t monotonic_ns() {
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(now.tv_nsec);
}

std::string_view to_string(RequestType type) {
    switch (type) {
        case RequestType::open: return "open";
        case RequestType::info: return "info";
        case RequestType::supports: return "supports";
        case RequestType::alloc: return "alloc";
        case RequestType::release: return "release";
        case RequestType::write: return "write";
        case RequestType::read: return "read";
        case RequestType::run: return "run";
        case RequestType::close: return "close";
        case RequestType::map_region: return "map_region";
        case RequestType::unmap_region: return "unmap_region";
        case RequestType::write_region: return "write_region";
        case RequestType::read_region: return "read_region";
        case RequestType::sequence: return "sequence";
    }
    return "unknown request";
}

std::array<std::byte, request_header_size> encode(const RequestHeader& header) {
    PayloadWriter w;
    w.u32(request_magic);
    w.u32(static_cast<std::uint32_t>(header.type));
    w.u64(header.call_id);
    w.u64(header.payload_size);
    return to_array<request_header_size>(w);
}

std::array<std::byte, reply_header_size> encode(const ReplyHeader& header) {
    PayloadWriter w;
    w.u32(reply_magic);
    w.u32(static_cast<std::uint32_t>(header.origin));
    w.u64(header.call_id);
    w.i32(header.status);
    w.u32(header.message_size);
    w.u64(header.payload_size);
    return to_array<reply_header_size>(w);
}

RequestHeader decode_request_header(std::span<const std::byte, request_header_size> bytes) {
    PayloadReader r(bytes);
    if (const auto magic = r.u32(); magic != request_magic)
        throw ProtocolError("request frame starts with " + hex(magic) + ", not the request magic " +
                            hex(request_magic));
    RequestHeader h;
    const auto type = r.u32();
    if (type < static_cast<std::uint32_t>(RequestType::open) || type > static_cast<std::uint32_t>(RequestType::sequence))
        throw ProtocolError("unknown request type " + std::to_string(type));
    h.type = static_cast<RequestType>(type);
    h.call_id = r.u64();
    h.payload_size = r.u64();
    return h;
}

ReplyHeader decode_reply_header(std::span<const std::byte, reply_header_size> bytes) {
    PayloadReader r(bytes);
    if (const auto magic = r.u32(); magic != reply_magic)
        throw ProtocolError("reply frame starts with " + hex(magic) + ", not the reply magic " + hex(reply_magic));
    ReplyHeader h;
    const auto origin = r.u32();
    if (origin > static_cast<std::uint32_t>(ReplyOrigin::load_error))
        throw ProtocolError("unknown reply origin " + std::to_string(origin));
    h.origin = static_cast<ReplyOrigin>(origin);
    h.call_id = r.u64();
    h.status = r.i32();
    h.message_size = r.u32();
    h.payload_size = r.u64();
    if (h.message_size > max_message_size)
        throw ProtocolError("reply message of " + std::to_string(h.message_size) + " bytes exceeds the limit of " +
                            std::to_string(max_message_size));
    return h;
}

}  // namespace kcs::host
