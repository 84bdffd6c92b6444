// A well-behaved adapter through the worker: every call of the ABI, the
// adapter's own errors, and the generation rule for buffer handles.
#include <gtest/gtest.h>

#include <chrono>
#include <numeric>

#include "test_support.hpp"

namespace kcs::host {
namespace {

using testing::fixture;
using testing::fixture_options;

TEST(IsolatedAdapter, ReportsTheTableNameAndInfo) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    EXPECT_EQ(adapter.name(), "fixture");
    EXPECT_EQ(adapter.generation(), 1u);
    ASSERT_TRUE(adapter.worker_pid().has_value());
    const auto info = adapter.info();
    ASSERT_TRUE(info.ok()) << info.result.describe();
    EXPECT_EQ(info.value.adapter_name, "fixture");
    EXPECT_EQ(info.value.adapter_version, "1.0.0");
    EXPECT_EQ(info.value.device, "host memory");
    EXPECT_EQ(info.value.driver_version, "");
}

TEST(IsolatedAdapter, RunsACompleteCase) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const auto calls = testing::add_case(adapter, 4099);
    for (const auto& r : calls.results) EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(IsolatedAdapter, SupportsDecidesWithoutBuffers) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    EXPECT_TRUE(adapter.supports(testing::add_op({}, {}, {}, 8)).ok());

    auto f16 = testing::add_op({}, {}, {}, 8);
    for (auto& t : f16.inputs) t.dtype = KCS_DTYPE_F16;
    const auto declined = adapter.supports(f16);
    EXPECT_EQ(declined.outcome, CallOutcome::adapter_status);
    EXPECT_EQ(declined.status, KCS_UNSUPPORTED);

    Operation matmul;
    matmul.name = "matmul";
    matmul.accumulate = KCS_DTYPE_F32;
    matmul.attributes = {{"transpose_b", true}, {"alpha", 1.5}, {"k", std::int64_t{7}}, {"mode", std::string("x")}};
    EXPECT_EQ(adapter.supports(matmul).status, KCS_UNSUPPORTED);
}

TEST(IsolatedAdapter, AdapterErrorsComeBackWithLastError) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const auto buffer = adapter.alloc(16);
    ASSERT_TRUE(buffer.ok());
    std::array<std::byte, 32> data{};
    const auto r = adapter.read(buffer.value, 0, data);
    EXPECT_EQ(r.outcome, CallOutcome::adapter_status);
    EXPECT_EQ(r.status, KCS_INVALID_ARGUMENT);
    EXPECT_NE(r.message.find("outside buffer"), std::string::npos) << r.message;

    const auto unknown = adapter.release({buffer.value.id + 100, buffer.value.generation});
    EXPECT_EQ(unknown.status, KCS_INVALID_ARGUMENT);
    EXPECT_NE(unknown.message.find("no buffer"), std::string::npos) << unknown.message;
    // Errors cost nothing: the same worker goes on.
    EXPECT_TRUE(adapter.release(buffer.value).ok());
    EXPECT_EQ(adapter.generation(), 1u);
}

TEST(IsolatedAdapter, EmptyBuffersAndTransfers) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const auto empty = adapter.alloc(0);
    ASSERT_TRUE(empty.ok());
    EXPECT_NE(empty.value.id, 0u);
    EXPECT_TRUE(adapter.write(empty.value, 0, {}).ok());
    EXPECT_TRUE(adapter.read(empty.value, 0, {}).ok());
    EXPECT_TRUE(adapter.release(empty.value).ok());
}

TEST(IsolatedAdapter, BulkDataRoundTrips) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const std::size_t bytes = std::size_t{64} << 20;
    std::vector<std::uint32_t> out(bytes / 4), back(bytes / 4);
    std::iota(out.begin(), out.end(), 0x9e3779b9u);
    const auto buffer = adapter.alloc(bytes);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(adapter.write(buffer.value, 0, std::as_bytes(std::span(out))).ok());
    ASSERT_TRUE(adapter.read(buffer.value, 0, std::as_writable_bytes(std::span(back))).ok());
    EXPECT_TRUE(out == back);
    // Part of a buffer, at an offset.
    std::array<std::uint32_t, 3> part{};
    ASSERT_TRUE(adapter.read(buffer.value, 40, std::as_writable_bytes(std::span(part))).ok());
    EXPECT_EQ(part[0], out[10]);
    EXPECT_EQ(part[2], out[12]);
}

TEST(IsolatedAdapter, HandlesOfAnEndedWorkerNeverReachTheAdapter) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const auto old = adapter.alloc(64);
    ASSERT_TRUE(old.ok());
    EXPECT_TRUE(adapter.close().ok());
    EXPECT_FALSE(adapter.worker_pid().has_value());

    // A stale handle starts no worker.
    const auto refused = adapter.write(old.value, 0, std::vector<std::byte>(8));
    EXPECT_EQ(refused.outcome, CallOutcome::stale_buffer);
    EXPECT_EQ(refused.status, KCS_INVALID_ARGUMENT);
    EXPECT_FALSE(adapter.worker_pid().has_value());

    // Anything else does, as the next generation; old handles stay refused,
    // even where the new worker hands out the same number.
    const auto fresh = adapter.alloc(64);
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(adapter.generation(), 2u);
    EXPECT_EQ(fresh.value.generation, 2u);
    EXPECT_EQ(fresh.value.id, old.value.id);
    const auto again = adapter.release(old.value);
    EXPECT_EQ(again.outcome, CallOutcome::stale_buffer);
    EXPECT_NE(again.message.find("generation 1"), std::string::npos) << again.message;
    EXPECT_TRUE(adapter.release(fresh.value).ok());

    auto op = testing::faulty_op(old.value, fresh.value, 4);
    EXPECT_EQ(adapter.run(op).outcome, CallOutcome::stale_buffer);
}

TEST(IsolatedAdapter, AnOperationTheAbiCannotHoldIsTheCallersError) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    auto op = testing::add_op({}, {}, {}, 4);
    op.inputs[0].shape.assign(KCS_MAX_RANK + 1, 1);
    EXPECT_THROW(adapter.supports(op), std::invalid_argument);
    op = testing::add_op({}, {}, {}, 4);
    op.inputs[0].strides = {1, 1};
    EXPECT_THROW(adapter.supports(op), std::invalid_argument);
    EXPECT_TRUE(adapter.supports(testing::add_op({}, {}, {}, 4)).ok());  // and nothing was lost
}

TEST(IsolatedAdapter, DestructionEndsTheWorker) {
    {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options());
        EXPECT_EQ(testing::child_processes(), 1);
    }
    EXPECT_EQ(testing::child_processes(), 0);
}

}  // namespace
}  // namespace kcs::host
