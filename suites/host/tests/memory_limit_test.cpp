// A leaking adapter is fine: the worker is replaced once its resident memory
// passes the limit, at a moment when it holds no buffers, so no call fails.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace kcs::host {
namespace {

constexpr std::uint64_t mib = 1 << 20;

TEST(MemoryLimit, ALeakingWorkerIsReplacedBetweenCases) {
    auto options = testing::fixture_options({"fault=leak", "leak_mib=16"});
    options.rss_limit_bytes = 64 * mib;
    IsolatedAdapter adapter(testing::fixture("fixture"), options);
    std::uint64_t peak = 0;
    for (int i = 0; i < 16; ++i) {
        const auto calls = testing::faulty_case(adapter);
        EXPECT_TRUE(calls.all_ok()) << "case " << i;
        peak = std::max(peak, adapter.worker_resident_bytes().value_or(0));
    }
    // 16 cases leak 256 MiB; a worker never holds more than the limit plus one case's leak.
    EXPECT_GE(adapter.memory_restarts(), 2u);
    EXPECT_EQ(adapter.generation(), 1 + adapter.memory_restarts());
    EXPECT_LE(peak, options.rss_limit_bytes + 16 * mib + 8 * mib);
    EXPECT_EQ(testing::zombie_children(), 0);
}

TEST(MemoryLimit, NoRestartWhileBuffersAreHeld) {
    auto options = testing::fixture_options({"fault=leak", "leak_mib=16"});
    options.rss_limit_bytes = 32 * mib;
    IsolatedAdapter adapter(testing::fixture("fixture"), options);
    const auto held = adapter.alloc(4);
    ASSERT_TRUE(held.ok());
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(testing::faulty_case(adapter).all_ok());
    EXPECT_EQ(adapter.memory_restarts(), 0u);
    EXPECT_GT(adapter.worker_resident_bytes().value_or(0), options.rss_limit_bytes);
    EXPECT_TRUE(adapter.release(held.value).ok());
    EXPECT_TRUE(testing::add_case(adapter).all_ok());
    EXPECT_EQ(adapter.memory_restarts(), 1u);
    EXPECT_EQ(adapter.generation(), 2u);
}

TEST(MemoryLimit, NoLimitNoRestart) {
    IsolatedAdapter adapter(testing::fixture("fixture"), testing::fixture_options({"fault=leak", "leak_mib=8"}));
    for (int i = 0; i < 6; ++i) EXPECT_TRUE(testing::faulty_case(adapter).all_ok());
    EXPECT_EQ(adapter.memory_restarts(), 0u);
    EXPECT_EQ(adapter.generation(), 1u);
}

}  // namespace
}  // namespace kcs::host
