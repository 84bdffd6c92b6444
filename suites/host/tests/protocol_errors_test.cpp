// A worker that breaks the protocol (tests/fake_worker.cpp) is killed and
// reaped, and its call reports protocol_error; at start-up the constructor
// throws AdapterError (worker_failed).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/mman.h>

#include "channel_io.hpp"
#include "frames.hpp"
#include "kcs/host/adapter_error.hpp"
#include "payload_codec.hpp"
#include "test_support.hpp"
#include "worker_process.hpp"

namespace kcs::host {
namespace {

IsolationOptions fake_worker_options() {
    auto options = testing::fixture_options({}, std::chrono::seconds(5));
    options.worker = KCS_FAKE_WORKER;
    return options;
}

std::string start_error(const char* mode) {
    try {
        IsolatedAdapter adapter(mode, fake_worker_options());
    } catch (const AdapterError& e) {
        EXPECT_EQ(e.problem(), AdapterProblem::worker_failed);
        return e.what();
    }
    ADD_FAILURE() << mode << " started";
    return {};
}

TEST(ProtocolErrors, AGarbledHelloFailsTheStart) {
    const auto what = start_error("garbage-hello");
    EXPECT_NE(what.find("bad reply to load: reply frame starts with 0x73696874"), std::string::npos) << what;
    EXPECT_EQ(testing::child_processes(), 0);
}

TEST(ProtocolErrors, AnotherProtocolVersionFailsTheStart) {
    const auto what = start_error("old-protocol");
    EXPECT_NE(what.find("speaks worker protocol 99, this kcs speaks " + std::to_string(protocol_version)), std::string::npos) << what;
    EXPECT_EQ(testing::child_processes(), 0);
}

void expect_protocol_error(const char* mode, std::string_view says) {
    IsolatedAdapter adapter(mode, fake_worker_options());
    EXPECT_EQ(adapter.name(), "fake");
    const auto r = adapter.alloc(8).result;
    EXPECT_EQ(r.outcome, CallOutcome::protocol_error) << r.describe();
    EXPECT_NE(r.message.find(says), std::string::npos) << r.message;
    EXPECT_FALSE(adapter.worker_pid().has_value());
    EXPECT_EQ(testing::child_processes(), 0);
}

TEST(ProtocolErrors, AReplyToAnotherCall) {
    expect_protocol_error("wrong-call-id", "reply to call 1002 while waiting for call 2");
}

TEST(ProtocolErrors, AnImpossiblePayloadSize) {
    expect_protocol_error("huge-payload", "reply payload of 1099511627776 bytes, expected at most 1048576");
}

TEST(ProtocolErrors, AClosedChannelFromALiveWorker) {
    expect_protocol_error("close-and-stay", "closed its channel during alloc(8 bytes) but kept running");
}

// ---- the real worker against bad region requests ---------------------------------

// kcs-worker with the fixture adapter, spoken to frame by frame, so that the
// requests IsolatedAdapter never sends can be sent.
class RawWorker {
public:
    RawWorker() : process_(find_worker_executable(testing::fixture("fixture")), testing::fixture("fixture")) {
        EXPECT_EQ(receive().origin, ReplyOrigin::adapter);  // hello
        PayloadWriter no_options;
        no_options.u32(0);
        EXPECT_EQ(request(RequestType::open, no_options).status, KCS_OK);
    }
    ~RawWorker() { process_.stop(std::chrono::milliseconds(0)); }

    struct Answer {
        ReplyOrigin origin{};
        kcs_status status = KCS_OK;
        std::string message;
    };

    Answer request(RequestType type, const PayloadWriter& fields, int fd = -1) {
        const auto head = encode(RequestHeader{type, ++call_id_, fields.bytes().size()});
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        const auto sent = fd >= 0 ? send_all_with_fd(process_.channel(), head, fd, until)
                                  : send_all(process_.channel(), head, until);
        EXPECT_EQ(sent, IoResult::ok);
        EXPECT_EQ(send_all(process_.channel(), fields.bytes(), until), IoResult::ok);
        return receive();
    }

private:
    Answer receive() {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        std::array<std::byte, reply_header_size> head{};
        EXPECT_EQ(receive_exact(process_.channel(), head, until), IoResult::ok);
        const auto h = decode_reply_header(head);
        Answer a{h.origin, h.status, std::string(h.message_size, '\0')};
        EXPECT_EQ(receive_exact(process_.channel(), std::as_writable_bytes(std::span(a.message)), until), IoResult::ok);
        std::vector<std::byte> payload(h.payload_size);
        EXPECT_EQ(receive_exact(process_.channel(), payload, until), IoResult::ok);
        return a;
    }

    WorkerProcess process_;
    std::uint64_t call_id_ = 0;
};

// A memfd of `bytes`, sealed as the harness seals its regions (or not).
UniqueFd region_memfd(std::uint64_t bytes, bool sealed = true) {
    UniqueFd fd(::memfd_create("kcs-shared-region", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    EXPECT_TRUE(fd);
    EXPECT_EQ(::ftruncate(fd.get(), static_cast<off_t>(bytes)), 0);
    if (sealed) {
        EXPECT_EQ(::fcntl(fd.get(), F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW), 0);
    }
    return fd;
}

PayloadWriter map_fields(std::uint64_t region, std::uint64_t size, bool writable) {
    PayloadWriter w;
    w.u64(region);
    w.u64(size);
    w.u8(writable ? 1 : 0);
    return w;
}

PayloadWriter transfer_fields(std::uint64_t buffer, std::uint64_t region, std::uint64_t offset, std::uint64_t size) {
    PayloadWriter w;
    w.u64(buffer);
    w.u64(0);
    w.u64(region);
    w.u64(offset);
    w.u64(size);
    return w;
}

void expect_refused(const RawWorker::Answer& a, std::string_view says) {
    EXPECT_EQ(a.origin, ReplyOrigin::bad_request) << a.message;
    EXPECT_NE(a.message.find(says), std::string::npos) << a.message;
}

TEST(ProtocolErrors, TheWorkerRefusesRegionRequestsThatDoNotFit) {
    RawWorker worker;
    PayloadWriter alloc;
    alloc.u64(1 << 16);
    ASSERT_EQ(worker.request(RequestType::alloc, alloc).status, KCS_OK);
    const std::uint64_t buffer = 1;  // the fixture's first handle

    expect_refused(worker.request(RequestType::map_region, map_fields(1, 4096, true)),
                   "map_region of region 1 came without a descriptor");
    const auto small = region_memfd(4096);
    expect_refused(worker.request(RequestType::map_region, map_fields(1, 8192, true), small.get()),
                   "8192 bytes asked for, the descriptor holds 4096");
    const auto unsealed = region_memfd(4096, false);
    expect_refused(worker.request(RequestType::map_region, map_fields(1, 4096, true), unsealed.get()),
                   "not sealed against shrinking");
    expect_refused(worker.request(RequestType::info, PayloadWriter{}, small.get()),
                   "a descriptor came with a info request");

    const auto good = region_memfd(4096), read_only = region_memfd(4096);
    ASSERT_EQ(worker.request(RequestType::map_region, map_fields(1, 4096, true), good.get()).origin,
              ReplyOrigin::adapter);
    ASSERT_EQ(worker.request(RequestType::map_region, map_fields(2, 4096, false), read_only.get()).origin,
              ReplyOrigin::adapter);
    expect_refused(worker.request(RequestType::map_region, map_fields(1, 4096, true), good.get()), "already mapped");
    EXPECT_EQ(worker.request(RequestType::write_region, transfer_fields(buffer, 1, 96, 4000)).status, KCS_OK);
    EXPECT_EQ(worker.request(RequestType::read_region, transfer_fields(buffer, 1, 0, 4096)).status, KCS_OK);

    expect_refused(worker.request(RequestType::write_region, transfer_fields(buffer, 9, 0, 16)),
                   "region 9 is not mapped");
    expect_refused(worker.request(RequestType::write_region, transfer_fields(buffer, 1, 4000, 200)),
                   "200 bytes at offset 4000 of region 1 pass its end (4096 bytes)");
    expect_refused(worker.request(RequestType::read_region, transfer_fields(buffer, 1, ~std::uint64_t{0}, 2)),
                   "2 bytes at offset 18446744073709551615 of region 1 pass its end");
    expect_refused(worker.request(RequestType::read_region, transfer_fields(buffer, 1, 8, ~std::uint64_t{0})),
                   "18446744073709551615 bytes at offset 8 of region 1 pass its end");
    expect_refused(worker.request(RequestType::read_region, transfer_fields(buffer, 2, 0, 16)),
                   "read_region into region 2, which is mapped read-only");
    EXPECT_EQ(worker.request(RequestType::write_region, transfer_fields(buffer, 2, 0, 4096)).status, KCS_OK);

    PayloadWriter unmap;
    unmap.u64(1);
    EXPECT_EQ(worker.request(RequestType::unmap_region, unmap).origin, ReplyOrigin::adapter);
    expect_refused(worker.request(RequestType::unmap_region, unmap), "unmap_region: region 1 is not mapped");
    expect_refused(worker.request(RequestType::write_region, transfer_fields(buffer, 1, 0, 16)),
                   "region 1 is not mapped");
}

// A sequence's progress area must be 16 writable, aligned bytes of a
// mapped region, and its steps transfers and runs only.
TEST(ProtocolErrors, TheWorkerRefusesSequencesThatDoNotFit) {
    RawWorker worker;
    PayloadWriter alloc;
    alloc.u64(4096);
    ASSERT_EQ(worker.request(RequestType::alloc, alloc).status, KCS_OK);
    const auto writable = region_memfd(4096), read_only = region_memfd(4096);
    ASSERT_EQ(worker.request(RequestType::map_region, map_fields(1, 4096, true), writable.get()).origin,
              ReplyOrigin::adapter);
    ASSERT_EQ(worker.request(RequestType::map_region, map_fields(2, 4096, false), read_only.get()).origin,
              ReplyOrigin::adapter);
    const auto sequence = [](std::uint64_t region, std::uint64_t offset, RequestType step_type) {
        PayloadWriter w;
        w.u64(region);
        w.u64(offset);
        w.u32(1);
        const PayloadWriter step = transfer_fields(1, 1, 64, 16);
        w.u32(static_cast<std::uint32_t>(step_type));
        w.u8(0);
        w.u64(step.bytes().size());
        w.raw(step.bytes());
        return w;
    };
    const auto good = worker.request(RequestType::sequence, sequence(1, 0, RequestType::write_region));
    EXPECT_EQ(good.origin, ReplyOrigin::adapter) << good.message;
    EXPECT_EQ(good.status, KCS_OK);
    expect_refused(worker.request(RequestType::sequence, sequence(3, 0, RequestType::write_region)),
                   "region 3 is not mapped");
    expect_refused(worker.request(RequestType::sequence, sequence(2, 0, RequestType::write_region)),
                   "which is mapped read-only");
    expect_refused(worker.request(RequestType::sequence, sequence(1, 4088, RequestType::write_region)),
                   "16 bytes at offset 4088 of region 1 pass its end");
    expect_refused(worker.request(RequestType::sequence, sequence(1, 4, RequestType::write_region)),
                   "not 8-byte aligned");
    expect_refused(worker.request(RequestType::sequence, sequence(1, 0, RequestType::alloc)),
                   "write_region, read_region and run steps, not alloc");
    expect_refused(worker.request(RequestType::sequence, sequence(1, 0, RequestType::sequence)),
                   "not sequence");
}

}  // namespace
}  // namespace kcs::host
