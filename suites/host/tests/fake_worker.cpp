// A stand-in for kcs-worker that breaks the protocol on purpose, to test
// how IsolatedAdapter copes. The "adapter path" argument picks the way:
//   garbage-hello   text instead of a hello frame
//   old-protocol    a hello frame of protocol version 99
//   wrong-call-id   hello, open ok, then answers the next call with another call id
//   huge-payload    hello, open ok, then announces a 1 TiB reply payload
//   close-and-stay  hello, open ok, then closes the channel and keeps running
#include <unistd.h>

#include <array>
#include <string_view>
#include <vector>

#include "channel_io.hpp"
#include "frames.hpp"
#include "payload_codec.hpp"

using namespace kcs::host;

namespace {

constexpr int channel = worker_channel_fd;

void reply(std::uint64_t call_id, std::uint64_t payload_size, std::span<const std::byte> payload = {}) {
    ReplyHeader h;
    h.call_id = call_id;
    h.payload_size = payload_size;
    send_all(channel, encode(h), no_deadline);
    send_all(channel, payload, no_deadline);
}

void hello(std::uint32_t version) {
    PayloadWriter w;
    w.u32(version);
    w.string("fake");
    w.u32(KCS_ADAPTER_ABI_VERSION);
    reply(0, w.bytes().size(), w.bytes());
}

// Reads one request; returns its call id.
std::uint64_t next_request() {
    std::array<std::byte, request_header_size> head;
    if (receive_exact(channel, head, no_deadline) != IoResult::ok) _exit(3);
    const auto h = decode_request_header(head);
    std::vector<std::byte> payload(h.payload_size);
    if (receive_exact(channel, payload, no_deadline) != IoResult::ok) _exit(3);
    return h.call_id;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) return 64;
    const std::string_view mode = argv[1];
    if (mode == "garbage-hello") {
        const std::string_view text = "this is not a frame, just text that a broken worker printed\n";
        send_all(channel, std::as_bytes(std::span(text)), no_deadline);
        pause();
    }
    if (mode == "old-protocol") {
        hello(99);
        pause();
    }
    hello(protocol_version);
    reply(next_request(), 0);  // open
    const auto call = next_request();
    if (mode == "wrong-call-id") reply(call + 1000, 0);
    if (mode == "huge-payload") reply(call, std::uint64_t{1} << 40);
    if (mode == "close-and-stay") ::close(channel);
    for (;;) pause();  // the harness must kill us
}
