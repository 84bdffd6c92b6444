// A well-behaved adapter through the worker: every call of the ABI, the
// adapter's own errors, and the generation rule for buffer handles.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <numeric>

#include "test_support.hpp"

namespace kcs::host {
namespace {

using testing::fixture;
using testing::fixture_options;

TEST(IsolatedAdapter, ReportsTheTableNameAndInfo) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    EXPECT_EQ(adapter.name(), "fixture");
    EXPECT_EQ(adapter.abi_version(), KCS_ADAPTER_ABI_VERSION_1_1);  // the worker's hello names the negotiated version
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

// ---- shared regions (PROTOCOL.md, "Shared regions") ----------------------------

// The permissions ("rw-s", "r--s") of the worker's mappings of harness
// regions, from /proc/PID/maps.
std::vector<std::string> region_mappings(pid_t pid) {
    std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
    std::vector<std::string> found;
    for (std::string line; std::getline(maps, line);)
        if (line.find("kcs-shared-region") != std::string::npos) found.push_back(line.substr(line.find(' ') + 1, 4));
    return found;
}

int regions_mapped_by(pid_t pid) { return static_cast<int>(region_mappings(pid).size()); }

void fill_pattern(std::span<std::byte> bytes, std::uint32_t salt) {
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::byte>((i * 2654435761u + salt) >> 13);
}

TEST(IsolatedAdapter, SharedRegionsRoundTripWithoutInlineData) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const std::size_t bytes = (std::size_t{3} << 20) + 12;  // not whole pages
    auto out = adapter.shared(bytes, WorkerAccess::read_only);
    auto back = adapter.shared(bytes);
    ASSERT_EQ(out.size(), bytes);
    ASSERT_NE(out.id(), back.id());
    fill_pattern(out.bytes(), 1);
    const auto buffer = adapter.alloc(bytes + 100);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(adapter.write(buffer.value, 100, out.bytes()).ok());
    ASSERT_TRUE(adapter.read(buffer.value, 100, back.bytes()).ok());
    EXPECT_EQ(adapter.shared_transfers(), 2u);
    EXPECT_EQ(std::memcmp(out.data(), back.data(), bytes), 0);
    // A part of a region, at an offset on both sides; and the inline path
    // sees the same device bytes.
    ASSERT_TRUE(adapter.read(buffer.value, 100 + 4096, back.bytes().subspan(8, 999)).ok());
    EXPECT_EQ(std::memcmp(back.data() + 8, out.data() + 4096, 999), 0);
    std::vector<std::byte> inline_copy(bytes);
    ASSERT_TRUE(adapter.read(buffer.value, 100, inline_copy).ok());
    EXPECT_EQ(std::memcmp(inline_copy.data(), out.data(), bytes), 0);
    EXPECT_EQ(adapter.shared_transfers(), 3u);
    EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 2);
}

TEST(IsolatedAdapter, ReadOnlyRegionsAreReadOnlyForTheWorkerAndReadsIntoThemGoInline) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    auto image = adapter.shared(4096, WorkerAccess::read_only);
    fill_pattern(image.bytes(), 2);
    const auto buffer = adapter.alloc(4096);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(adapter.write(buffer.value, 0, image.bytes()).ok());
    EXPECT_EQ(adapter.shared_transfers(), 1u);
    std::vector<std::byte> expected(image.bytes().begin(), image.bytes().end());
    ASSERT_TRUE(adapter.read(buffer.value, 0, image.bytes()).ok());  // the harness may, inline
    EXPECT_EQ(adapter.shared_transfers(), 1u);
    EXPECT_EQ(std::memcmp(expected.data(), image.data(), 4096), 0);
    // Mapped without write permission (and the sealed memfd lets nobody add it).
    EXPECT_EQ(region_mappings(*adapter.worker_pid()), std::vector<std::string>{"r--s"});
}

// An adapter that writes to the source of a write (casting away const) can
// change a read_write region, never a read_only one: the worker cannot map
// that writable, so the scribble faults and costs the call, and the
// harness's bytes stay as they were.
TEST(IsolatedAdapter, AWildAdapterCannotChangeAReadOnlyRegion) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=scribble-source"}));
    auto writable = adapter.shared(64), read_only = adapter.shared(64, WorkerAccess::read_only);
    const auto buffer = adapter.alloc(64);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(adapter.write(buffer.value, 0, writable.bytes()).ok());
    EXPECT_EQ(writable.bytes()[0], std::byte{1}) << "the scribble should land in a writable region";

    const auto refused = adapter.write(buffer.value, 0, read_only.bytes());
    EXPECT_EQ(refused.outcome, CallOutcome::crash) << refused.describe();
    ASSERT_TRUE(refused.worker_exit.has_value());
    EXPECT_EQ(read_only.bytes()[0], std::byte{0});
}

// A span that runs past a region's edge is ordinary caller memory: it takes
// the inline path and arrives whole.
TEST(IsolatedAdapter, ASpanHalfInsideARegionTravelsInline) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    auto region = adapter.shared(page);
    // Memory of our own right after (or else right before) the region, so
    // that the span across its edge is valid.
    std::byte* neighbour = nullptr;
    for (std::byte* at : {region.data() + page, region.data() - page}) {
        void* p = ::mmap(at, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == at) {
            neighbour = at;
            break;
        }
        if (p != MAP_FAILED) ::munmap(p, page);
    }
    if (!neighbour) GTEST_SKIP() << "the pages on both sides of the region are taken";
    const std::span<std::byte> straddling(std::max(region.data(), neighbour) - page / 2, page);
    fill_pattern(straddling, 3);
    const auto buffer = adapter.alloc(page);
    ASSERT_TRUE(buffer.ok());
    ASSERT_TRUE(adapter.write(buffer.value, 0, straddling).ok());
    EXPECT_EQ(adapter.shared_transfers(), 0u);
    std::vector<std::byte> back(page);
    ASSERT_TRUE(adapter.read(buffer.value, 0, back).ok());
    EXPECT_EQ(std::memcmp(back.data(), straddling.data(), page), 0);
    std::memset(straddling.data(), 0, page);
    ASSERT_TRUE(adapter.read(buffer.value, 0, straddling).ok());
    EXPECT_EQ(adapter.shared_transfers(), 0u);
    EXPECT_EQ(std::memcmp(back.data(), straddling.data(), page), 0);
    ::munmap(neighbour, page);
}

// The region is the harness's: a crash loses the worker's mapping, not the
// bytes, and the next worker maps it again before its first use.
TEST(IsolatedAdapter, SharedRegionsSurviveAWorkerCrash) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=segv"}));
    auto in = adapter.shared(4096 * 4, WorkerAccess::read_only);
    auto out = adapter.shared(4096 * 4);
    fill_pattern(in.bytes(), 4);
    std::vector<std::byte> expected(in.bytes().begin(), in.bytes().end());
    const auto a = adapter.alloc(in.size()), b = adapter.alloc(in.size());
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_TRUE(adapter.write(a.value, 0, in.bytes()).ok());
    const auto crashed = adapter.run(testing::faulty_op(a.value, b.value, 4096));
    ASSERT_EQ(crashed.outcome, CallOutcome::crash) << crashed.describe();
    EXPECT_EQ(std::memcmp(in.data(), expected.data(), expected.size()), 0);

    const auto c = adapter.alloc(in.size());
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(adapter.generation(), 2u);
    ASSERT_TRUE(adapter.write(c.value, 0, in.bytes()).ok());
    ASSERT_TRUE(adapter.read(c.value, 0, out.bytes()).ok());
    EXPECT_EQ(adapter.shared_transfers(), 3u);
    EXPECT_EQ(std::memcmp(out.data(), expected.data(), expected.size()), 0);
    EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 2);
}

// A region given back serves the next of its access and about its size:
// the same memory, mapped once in the worker; beyond the bytes kept, the
// least recently kept goes.
TEST(IsolatedAdapter, AKeptRegionServesTheNextOfItsAccessWithoutANewMapping) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options());
    const auto buffer = adapter.alloc(8192);
    ASSERT_TRUE(buffer.ok());
    auto first = adapter.reused_shared(8192, WorkerAccess::read_write);
    const std::uint64_t first_id = first.id();
    ASSERT_TRUE(adapter.read(buffer.value, 0, first.bytes()).ok());
    EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 1);
    adapter.keep_shared(std::move(first));

    auto again = adapter.reused_shared(5000, WorkerAccess::read_write);
    EXPECT_EQ(again.id(), first_id);
    EXPECT_EQ(again.size(), 5000u);
    ASSERT_TRUE(adapter.read(buffer.value, 0, again.bytes()).ok());
    EXPECT_EQ(adapter.shared_transfers(), 2u);
    EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 1);  // no second mapping
    adapter.keep_shared(std::move(again));
    EXPECT_NE(adapter.reused_shared(5000, WorkerAccess::read_only).id(), first_id);  // another access
    EXPECT_NE(adapter.reused_shared(100, WorkerAccess::read_write).id(), first_id);  // a page is under half of it

    // Two regions of 3/5 of what is kept: the first kept is destroyed.
    const std::uint64_t large = IsolatedAdapter::kKeptSharedBytes / 5 * 3;
    auto a = adapter.shared(large);
    auto b = adapter.shared(large);
    const std::uint64_t b_id = b.id();
    adapter.keep_shared(std::move(a));
    adapter.keep_shared(std::move(b));
    EXPECT_EQ(adapter.reused_shared(large, WorkerAccess::read_write).id(), b_id);
    EXPECT_GT(adapter.reused_shared(large, WorkerAccess::read_write).id(), b_id);  // a new one
}

// A region that dies is unmapped in the worker before the next call; one
// that outlives its adapter stays usable memory.
TEST(IsolatedAdapter, DeadRegionsAreUnmappedAndRegionsMayOutliveTheirAdapter) {
    SharedBytes kept;
    {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options());
        const auto buffer = adapter.alloc(8192);
        ASSERT_TRUE(buffer.ok());
        {
            auto region = adapter.shared(8192);
            ASSERT_TRUE(adapter.write(buffer.value, 0, region.bytes()).ok());
            EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 1);
        }
        EXPECT_TRUE(adapter.info().ok());  // the unmap goes first
        EXPECT_EQ(regions_mapped_by(*adapter.worker_pid()), 0);
        EXPECT_EQ(adapter.generation(), 1u);
        kept = adapter.shared(100);
        ASSERT_TRUE(adapter.read(buffer.value, 0, kept.bytes()).ok());
    }
    kept.bytes()[99] = std::byte{7};
    EXPECT_EQ(kept.bytes()[99], std::byte{7});
    SharedBytes moved = std::move(kept);
    EXPECT_EQ(kept.size(), 0u);
    EXPECT_EQ(moved.size(), 100u);
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
