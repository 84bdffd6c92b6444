// IsolatedAdapter::write_run_read: a guarded run's writes, run and reads
// in one request (PROTOCOL.md, "Sequences"), with the answers, the stops
// and the per-call timeouts the same calls made one by one would give.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <tuple>
#include <vector>

#include "test_support.hpp"

namespace kcs::host {
namespace {

using testing::fixture;
using testing::fixture_options;
using Stage = TripResult::Stage;

constexpr std::int64_t kElements = 1000;
constexpr std::uint64_t kBytes = kElements * sizeof(float);

// elementwise/add of two f32 vectors in three buffers, its images in shared regions.
struct AddTrip {
    explicit AddTrip(IsolatedAdapter& adapter, bool shared = true) {
        for (auto& b : buffers) {
            const auto allocated = adapter.alloc(kBytes);
            EXPECT_TRUE(allocated.ok()) << allocated.result.describe();
            b = allocated.value;
        }
        for (int i = 0; i < 2; ++i) {
            sources[i] = adapter.shared(kBytes, WorkerAccess::read_only);
            for (std::int64_t k = 0; k < kElements; ++k) {
                const float v = static_cast<float>(k) * (i + 1);
                std::memcpy(sources[i].data() + k * 4, &v, 4);
            }
        }
        result = adapter.shared(kBytes);
        inline_result.resize(kBytes);
        writes = {{buffers[0], 0, sources[0].bytes()}, {buffers[1], 0, sources[1].bytes()}};
        reads = {{buffers[2], 0, shared ? result.bytes() : std::span<std::byte>(inline_result)}};
        op = testing::add_op(buffers[0], buffers[1], buffers[2], kElements);
    }
    float sum(std::int64_t k) const {
        float v;
        std::memcpy(&v, reads[0].bytes.data() + k * 4, 4);
        return v;
    }

    BufferHandle buffers[3];
    SharedBytes sources[2];
    SharedBytes result;
    std::vector<std::byte> inline_result;
    std::vector<TripWrite> writes;
    std::vector<TripRead> reads;
    Operation op;
};

TEST(Trip, WritesRunsAndReadsInOneRequest) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    AddTrip trip(adapter);
    const auto transfers = adapter.shared_transfers();
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    ASSERT_FALSE(r.stopped) << r.stopped->result.describe();
    EXPECT_TRUE(r.run.ok()) << r.run.describe();
    EXPECT_EQ(adapter.sequences(), 1u);
    EXPECT_EQ(adapter.shared_transfers(), transfers + 3);
    for (std::int64_t k : {0, 1, 999}) EXPECT_EQ(trip.sum(k), 3.0f * static_cast<float>(k));
}

TEST(Trip, ASpanOutsideARegionMakesTheCallsOneByOneWithTheSameResult) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    AddTrip trip(adapter, false);
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    ASSERT_FALSE(r.stopped) << r.stopped->result.describe();
    EXPECT_EQ(adapter.sequences(), 0u);
    EXPECT_EQ(trip.sum(999), 2997.0f);
}

TEST(Trip, TheReadsFollowARunThatFailed) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    AddTrip trip(adapter);
    trip.op.name = "no-such-operator";
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    EXPECT_EQ(r.run.status, KCS_UNSUPPORTED);
    EXPECT_NE(r.run.message.find("unsupported"), std::string::npos) << r.run.message;
    EXPECT_FALSE(r.stopped);  // the read ran: the harness checks canaries whatever the run said
    EXPECT_EQ(adapter.generation(), 1u);
}

TEST(Trip, AFailedWriteEndsTheTripAtThatWrite) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    AddTrip trip(adapter);
    trip.writes[1].offset = 8;  // past the buffer's end
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    ASSERT_TRUE(r.stopped);
    EXPECT_EQ(r.stopped->stage, Stage::write);
    EXPECT_EQ(r.stopped->index, 1u);
    EXPECT_EQ(r.stopped->result.status, KCS_INVALID_ARGUMENT);
    EXPECT_NE(r.stopped->result.message.find("outside buffer"), std::string::npos) << r.stopped->result.message;
    EXPECT_TRUE(r.run.ok());  // never ran: the output buffer still holds the fixture's zeros
    std::vector<std::byte> output(kBytes, std::byte{0x5a});
    ASSERT_TRUE(adapter.read(trip.buffers[2], 0, output).ok());
    EXPECT_TRUE(std::all_of(output.begin(), output.end(), [](std::byte b) { return b == std::byte{0}; }));
}

// A crash costs the call it happened in, named as that call and as the
// sequence's step (so the sequence carried it).
TEST(Trip, ACrashIsTheCallItHappenedIn) {
    for (const auto& [where, stage, step] :
         {std::tuple{"write", Stage::write, 1}, {"run", Stage::run, 3}, {"read", Stage::read, 4}}) {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=segv", std::string("fault_in=") + where}));
        AddTrip trip(adapter);
        if (stage == Stage::run) trip.op = testing::faulty_op(trip.buffers[0], trip.buffers[2], kElements);
        const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
        ASSERT_TRUE(r.stopped) << where;
        EXPECT_EQ(r.stopped->stage, stage) << where;
        EXPECT_EQ(r.stopped->index, 0u) << where;
        EXPECT_EQ(r.stopped->result.outcome, CallOutcome::crash) << r.stopped->result.describe();
        const auto& message = r.stopped->result.message;
        EXPECT_NE(message.find(std::string("during ") + where + "("), std::string::npos) << message;
        EXPECT_NE(message.find("(step " + std::to_string(step) + " of sequence("), std::string::npos) << message;
        if (stage == Stage::run) {
            EXPECT_EQ(r.run.outcome, CallOutcome::crash);
        }
        EXPECT_FALSE(adapter.worker_pid().has_value());
    }
}

// Each call gets the call timeout from its own start: four calls of 300 ms
// under a 1 s timeout complete; a hang in the read is caught about 1 s
// after the read began and named as the read.
TEST(Trip, EachCallIsTimedOnItsOwn) {
    {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options({"delay_ms=300"}, std::chrono::seconds(1)));
        AddTrip trip(adapter);
        const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
        ASSERT_FALSE(r.stopped) << r.stopped->result.describe();
        EXPECT_EQ(adapter.sequences(), 1u);
        EXPECT_EQ(trip.sum(10), 30.0f);
    }
    IsolatedAdapter adapter(fixture("fixture"),
                            fixture_options({"fault=hang", "fault_in=read", "delay_ms=300"}, std::chrono::seconds(1)));
    AddTrip trip(adapter);
    const auto start = std::chrono::steady_clock::now();
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(r.stopped);
    EXPECT_EQ(r.stopped->stage, Stage::read);
    EXPECT_EQ(r.stopped->result.outcome, CallOutcome::timeout) << r.stopped->result.describe();
    EXPECT_NE(r.stopped->result.message.find("read("), std::string::npos) << r.stopped->result.message;
    // Three calls of 300 ms, then the read's 300 ms and its hang: timed out
    // 1 s after the read began, not 1 s after the trip did.
    EXPECT_GE(took, std::chrono::milliseconds(1900));
    EXPECT_LT(took, std::chrono::seconds(4));
}

TEST(Trip, ALostDeviceEndsTheTripAfterTheRun) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=device-lost"}));
    AddTrip trip(adapter);
    trip.op = testing::faulty_op(trip.buffers[0], trip.buffers[2], kElements);
    std::fill(trip.result.bytes().begin(), trip.result.bytes().end(), std::byte{0xab});
    const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
    EXPECT_EQ(r.run.status, KCS_DEVICE_LOST);
    EXPECT_FALSE(r.stopped);
    EXPECT_FALSE(adapter.worker_pid().has_value());  // closed: the ABI allows nothing else
    // and no read followed
    EXPECT_TRUE(std::all_of(trip.result.bytes().begin(), trip.result.bytes().end(),
                            [](std::byte b) { return b == std::byte{0xab}; }));
}

// A lost device in a transfer closes the worker too (the ABI allows nothing but close).
TEST(Trip, ALostDeviceInATransferClosesTheWorker) {
    for (const auto& [where, stage] : {std::pair{"write", Stage::write}, {"read", Stage::read}}) {
        IsolatedAdapter adapter(fixture("fixture"),
                                fixture_options({"fault=device-lost", std::string("fault_in=") + where}));
        AddTrip trip(adapter);
        const TripResult r = adapter.write_run_read(trip.writes, trip.op, trip.reads);
        ASSERT_TRUE(r.stopped) << where;
        EXPECT_EQ(r.stopped->stage, stage) << where;
        EXPECT_EQ(r.stopped->result.status, KCS_DEVICE_LOST) << r.stopped->result.describe();
        EXPECT_FALSE(adapter.worker_pid().has_value()) << where;
    }
}

}  // namespace
}  // namespace kcs::host
