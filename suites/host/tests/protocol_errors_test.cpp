// A worker that breaks the protocol (tests/fake_worker.cpp) is killed and
// reaped, and its call reports protocol_error; at start-up the constructor
// throws AdapterError (worker_failed).
#include <gtest/gtest.h>

#include "frames.hpp"
#include "kcs/host/adapter_error.hpp"
#include "test_support.hpp"

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

}  // namespace
}  // namespace kcs::host
