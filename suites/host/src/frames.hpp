// The frame headers of the worker protocol (PROTOCOL.md): a request from
// the harness, a reply from the worker. Each is followed by its payload.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <kcs/adapter.h>

namespace kcs::host {

inline constexpr std::uint32_t request_magic = 0x5153434bu;  // "KCSQ" in the byte stream
inline constexpr std::uint32_t reply_magic = 0x5253434bu;    // "KCSR"
// 2: shared regions; 3: the hello names the ABI version; 4: sequence
inline constexpr std::uint32_t protocol_version = 4;
inline constexpr int worker_channel_fd = 3;  // where kcs-worker finds its end of the channel

// The cap on a reply's message; the worker truncates longer ones.
inline constexpr std::uint32_t max_message_size = 64 * 1024;

enum class RequestType : std::uint32_t {
    open = 1,
    info = 2,
    supports = 3,
    alloc = 4,
    release = 5,
    write = 6,
    read = 7,
    run = 8,
    close = 9,
    // Shared regions (PROTOCOL.md): bulk data in harness memory the worker maps.
    map_region = 10,    // carries the region's memfd (SCM_RIGHTS)
    unmap_region = 11,
    write_region = 12,  // write from a region: no data in the frame
    read_region = 13,   // read into a region: no data in the reply
    // Several transfers and runs in one request and one reply (PROTOCOL.md, "Sequences").
    sequence = 14,
};

std::string_view to_string(RequestType type);

// The clock of a sequence's progress area (PROTOCOL.md, "Sequences"):
// CLOCK_MONOTONIC in ns, which the worker stores and the harness compares.
std::uint64_t monotonic_ns();

enum class ReplyOrigin : std::uint32_t {
    adapter = 0,        // status is what the adapter function returned
    abi_violation = 1,  // the adapter returned KCS_OK with an answer the ABI forbids
    bad_request = 2,    // the worker could not decode the request
    load_error = 3,     // hello only: status is an AdapterProblem, message its detail
};

struct RequestHeader {
    RequestType type{};
    std::uint64_t call_id = 0;
    std::uint64_t payload_size = 0;
};

struct ReplyHeader {
    ReplyOrigin origin{};
    std::uint64_t call_id = 0;
    kcs_status status = KCS_OK;
    std::uint32_t message_size = 0;
    std::uint64_t payload_size = 0;
};

inline constexpr std::size_t request_header_size = 24;
inline constexpr std::size_t reply_header_size = 32;

std::array<std::byte, request_header_size> encode(const RequestHeader& header);
std::array<std::byte, reply_header_size> encode(const ReplyHeader& header);

// Throw ProtocolError for a wrong magic number, an unknown type or origin,
// or a message longer than max_message_size.
RequestHeader decode_request_header(std::span<const std::byte, request_header_size> bytes);
ReplyHeader decode_reply_header(std::span<const std::byte, reply_header_size> bytes);

}  // namespace kcs::host
