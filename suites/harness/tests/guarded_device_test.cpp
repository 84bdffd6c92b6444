// The integrity protocol (SPEC.md section 7) through real adapters in a
// worker: reference-cpu runs clean, the calibration violations stale-output
// and tile-overrun are caught with their C-EXC-02 signatures, canaries
// follow the SPEC's formula, buffers are reused with fresh inputs; and the
// checks themselves on hand-made images, for the faults no adapter has.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../src/guarded_protocol.hpp"
#include "kcs/harness/guarded_device.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/philox.hpp"

namespace kcs::harness {
namespace {

using namespace std::chrono_literals;

host::IsolatedAdapter open_adapter(const std::string& name, std::vector<std::string> options = {}) {
    host::IsolationOptions isolation;
    isolation.adapter_options = std::move(options);
    isolation.call_timeout = 10s;
    return host::IsolatedAdapter(host::resolve_adapter(name), isolation);
}

HostTensor tensor_of(kcs_dtype dtype, std::vector<std::int64_t> shape, double (*value)(std::size_t, double),
                     double offset) {
    HostTensor t = HostTensor::zeros(dtype, std::move(shape));
    for (std::size_t i = 0; i < t.elements(); ++i) t.set_value(i, value(i, offset));
    return t;
}

// Values whose sums are exact in every float dtype: multiples of 1/4 below 64.
double quarter_steps(std::size_t i, double offset) { return offset + 0.25 * static_cast<double>(i % 97); }
double small_integers(std::size_t i, double offset) { return offset + static_cast<double>(i % 7) - 3; }

Invocation add_of(HostTensor a, HostTensor b) {
    Invocation add{"elementwise", "add", 0, {}, {}, {}};
    add.outputs = {{a.dtype, a.shape}};
    add.inputs = {std::move(a), std::move(b)};
    return add;
}

Invocation f32_add(std::vector<std::int64_t> shape, double offset_a, double offset_b) {
    return add_of(tensor_of(KCS_DTYPE_F32, shape, quarter_steps, offset_a),
                  tensor_of(KCS_DTYPE_F32, shape, quarter_steps, offset_b));
}

void expect_sums(const GuardedRun& run, const Invocation& add) {
    ASSERT_EQ(run.outputs.size(), 1u);
    const HostTensor& out = run.outputs[0];
    ASSERT_EQ(out.elements(), add.inputs[0].elements());
    for (std::size_t i = 0; i < out.elements(); ++i)
        ASSERT_EQ(out.value(i), add.inputs[0].value(i) + add.inputs[1].value(i)) << "element " << i;
}

void expect_clean(const GuardedRun& run) {
    EXPECT_TRUE(run.call.ok()) << run.call.describe();
    EXPECT_EQ(run.step, GuardedStep::run);
    EXPECT_TRUE(run.checked);
    for (const auto& b : run.breaches) ADD_FAILURE() << b.signature << ": " << b.detail;
}

// The canary bytes of a zone, straight from the SPEC's words: block b of
// zone z is Philox4x32-10 of counter (lo32(b), hi32(b), z, 1) under the key
// (lo32(seed), hi32(seed)), bytes 16b..16b+15 being w0..w3 little-endian.
std::vector<std::byte> spec_canary(std::uint64_t seed, std::uint32_t zone, std::size_t length) {
    std::vector<std::byte> bytes;
    for (std::uint64_t b = 0; bytes.size() < length; ++b) {
        const auto w = ref::philox4x32_10({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(b >> 32), zone, 1},
                                          {static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
        for (int word = 0; word < 4; ++word)
            for (int k = 0; k < 4 && bytes.size() < length; ++k)
                bytes.push_back(static_cast<std::byte>(w[word] >> (8 * k)));
    }
    return bytes;
}

std::vector<std::byte> read_buffer(host::IsolatedAdapter& adapter, const Placement& placement) {
    std::vector<std::byte> bytes(placement.buffer_bytes);
    const auto r = adapter.read(placement.buffer, 0, bytes);
    EXPECT_TRUE(r.ok()) << r.describe();
    return bytes;
}

// Every buffer as the device holds it: both zones per the SPEC's formula.
// `default_layout`: the tensors start 1 KiB in, 64-byte aligned (no alignment offset).
void expect_spec_canaries(host::IsolatedAdapter& adapter, const GuardedDevice& device, std::uint64_t seed,
                          bool default_layout = true) {
    const auto placements = device.placements();
    for (std::size_t p = 0; p < placements.size(); ++p) {
        const Placement& at = placements[p];
        SCOPED_TRACE("tensor position " + std::to_string(p));
        const std::uint64_t after = at.tensor_offset + at.tensor_bytes;
        EXPECT_GE(at.tensor_offset, 1024u);
        if (default_layout) {
            EXPECT_EQ(at.tensor_offset % 64, 0u);
        }
        EXPECT_GE(at.buffer_bytes - after, 1024u);
        const auto bytes = read_buffer(adapter, at);
        const auto before_zone = std::vector<std::byte>(bytes.begin(), bytes.begin() + at.tensor_offset);
        const auto after_zone = std::vector<std::byte>(bytes.begin() + after, bytes.end());
        EXPECT_EQ(before_zone, spec_canary(seed, static_cast<std::uint32_t>(2 * p), before_zone.size()));
        EXPECT_EQ(after_zone, spec_canary(seed, static_cast<std::uint32_t>(2 * p + 1), after_zone.size()));
    }
}

std::string hex_byte(std::byte b) {
    char text[5];
    std::snprintf(text, sizeof text, "0x%02x", std::to_integer<unsigned>(b));
    return text;
}

// ---- reference-cpu: clean runs -----------------------------------------------

TEST(GuardedDevice, ReferenceCpuAddRunsClean) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 7);
    const auto add = f32_add({5, 37}, -12, 3.5);  // 740 bytes: the trailing zone takes padding
    const auto run = device.run(add);
    expect_clean(run);
    expect_sums(run, add);
    EXPECT_GT(run.adapter_time.count(), 0);
}

TEST(GuardedDevice, ReferenceCpuMatmulRunsClean) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 8);
    const std::int64_t batch = 2, m = 3, k = 7, n = 5;
    Invocation matmul{"matmul", std::nullopt, KCS_DTYPE_F32, {}, {}, {{KCS_DTYPE_F32, {batch, m, n}}}};
    matmul.inputs = {tensor_of(KCS_DTYPE_F32, {batch, m, k}, small_integers, 0),
                     tensor_of(KCS_DTYPE_F32, {batch, k, n}, small_integers, 1)};
    ASSERT_TRUE(device.supports(matmul).ok());
    const auto run = device.run(matmul);
    expect_clean(run);
    ASSERT_EQ(run.outputs.size(), 1u);
    const auto& a = matmul.inputs[0];
    const auto& b = matmul.inputs[1];
    for (std::int64_t s = 0; s < batch; ++s)
        for (std::int64_t i = 0; i < m; ++i)
            for (std::int64_t j = 0; j < n; ++j) {
                double want = 0;  // small integers: every partial sum is exact
                for (std::int64_t l = 0; l < k; ++l)
                    want += a.value(static_cast<std::size_t>((s * m + i) * k + l)) *
                            b.value(static_cast<std::size_t>((s * k + l) * n + j));
                EXPECT_EQ(run.outputs[0].value(static_cast<std::size_t>((s * m + i) * n + j)), want);
            }
}

// Rule 1's formula, read back from the device for a seed with both halves
// set, and again after a reseed in the same buffers.
TEST(GuardedDevice, CanaryBytesFollowTheSpecFormula) {
    auto adapter = open_adapter("reference-cpu");
    const std::uint64_t seed = 0x0123456789ABCDEFu;
    GuardedDevice device(adapter, seed);
    const auto add = f32_add({3, 11}, 1, 2);
    expect_clean(device.run(add));
    ASSERT_EQ(device.placements().size(), 3u);
    expect_spec_canaries(adapter, device, seed);

    device.reseed(seed + 1);
    expect_clean(device.run(add));
    expect_spec_canaries(adapter, device, seed + 1);
}

// Rule 4: the second run reuses the first run's buffers with fresh inputs,
// and its outputs are its own.
TEST(GuardedDevice, FreshInputsInReusedBuffers) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 11);
    const auto first = f32_add({9, 13}, 0, 1);
    const auto second = f32_add({9, 13}, -20, 7.25);
    const auto run_a = device.run(first);
    expect_clean(run_a);
    const auto placed_a = device.placements();
    device.reseed(12);
    const auto run_b = device.run(second);
    expect_clean(run_b);
    expect_sums(run_b, second);
    const auto placed_b = device.placements();
    ASSERT_EQ(placed_a.size(), placed_b.size());
    for (std::size_t p = 0; p < placed_a.size(); ++p) EXPECT_EQ(placed_a[p].buffer, placed_b[p].buffer) << p;
}

TEST(GuardedDevice, NewSizesGetNewBuffersAndUnusedOnesAreReleased) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 13);
    expect_clean(device.run(f32_add({100}, 0, 1)));
    const auto before = device.placements();
    const auto bigger = f32_add({300}, 0, 1);
    const auto run = device.run(bigger);
    expect_clean(run);
    expect_sums(run, bigger);
    const auto after = device.placements();
    ASSERT_EQ(after.size(), 3u);
    for (std::size_t p = 0; p < 3; ++p) EXPECT_NE(after[p].buffer, before[p].buffer) << p;

    Invocation unary{"unary", "exp", 0, {}, {tensor_of(KCS_DTYPE_F32, {300}, quarter_steps, -10)},
                     {{KCS_DTYPE_F32, {300}}}};
    expect_clean(device.run(unary));
    ASSERT_EQ(device.placements().size(), 2u);
    std::array<std::byte, 4> probe{};
    const auto released = adapter.read(after[2].buffer, 0, probe);
    EXPECT_EQ(released.status, KCS_INVALID_ARGUMENT) << "the third buffer should have been released";
}

// A position keeps the buffer of each size it held: calls that cycle
// through sizes (a sweep's call lengths) reuse them, fresh inputs each
// time.
TEST(GuardedDevice, SizesThatComeBackReuseTheirBuffers) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 17);
    std::vector<std::vector<Placement>> placed;
    for (const std::int64_t n : {100, 300, 100, 300}) {
        const auto add = f32_add({n}, static_cast<float>(n), 1);
        const auto run = device.run(add);
        expect_clean(run);
        expect_sums(run, add);
        placed.push_back(device.placements());
    }
    for (std::size_t p = 0; p < 3; ++p) {
        EXPECT_NE(placed[0][p].buffer, placed[1][p].buffer) << p;
        EXPECT_EQ(placed[0][p].buffer, placed[2][p].buffer) << p;
        EXPECT_EQ(placed[1][p].buffer, placed[3][p].buffer) << p;
    }
    // Eight more sizes give back the least recently used (100, then 300):
    // runs of those sizes again allocate anew and compute as before.
    for (std::int64_t n = 1; n <= 8; ++n) expect_clean(device.run(f32_add({1000 + n}, 0, 1)));
    for (const std::int64_t n : {100, 300}) {
        const auto add = f32_add({n}, -3, 0.5);
        const auto run = device.run(add);
        expect_clean(run);
        expect_sums(run, add);
    }
}

// A size that comes back runs under the whole protocol again: an adapter
// that leaves its output unwritten is caught in its kept buffer too.
TEST(GuardedDevice, AStaleOutputIsCaughtInAKeptBuffer) {
    auto adapter = open_adapter("calibration", {"violation=stale-output"});
    GuardedDevice device(adapter, 23);
    for (const std::int64_t n : {64, 128, 64}) {
        const auto run = device.run(f32_add({n}, 1, 2));
        ASSERT_TRUE(run.call.ok()) << run.call.describe();
        ASSERT_EQ(run.breaches.size(), 1u) << n;
        EXPECT_EQ(run.breaches[0].signature, "stale-or-poison-left") << n;
    }
}

TEST(GuardedDevice, SupportsAsksWithoutData) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 1);
    EXPECT_TRUE(device.supports(f32_add({4}, 0, 0)).ok());
    Invocation unknown{"convolution", std::nullopt, 0, {}, {HostTensor::zeros(KCS_DTYPE_F32, {4})},
                       {{KCS_DTYPE_F32, {4}}}};
    EXPECT_EQ(device.supports(unknown).status, KCS_UNSUPPORTED);
    EXPECT_TRUE(device.placements().empty());
}

TEST(GuardedDevice, InputsThatDoNotFitTheirShapeAreRefused) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 1);
    auto add = f32_add({4}, 0, 0);
    add.inputs[1].bytes.pop_back();
    EXPECT_THROW(device.run(add), std::invalid_argument);
}

// C-ORD-02's alignment offsets: each tensor at 4096 + a bytes into its
// buffer (4096 for a = 4096), an offset below the element size raised to
// it, canaries whole on both sides and the result the same.
TEST(GuardedDevice, AlignmentOffsetsPlaceEveryTensorThereWithItsGuardZones) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 61);
    const Invocation add = f32_add({7, 19}, 1, 2);
    for (const std::uint64_t a : {4u, 64u, 4096u}) {
        SCOPED_TRACE(a);
        const auto run = device.run(add, TensorPlacement{a});
        expect_clean(run);
        expect_sums(run, add);
        for (const Placement& p : device.placements()) {
            EXPECT_EQ(p.tensor_offset, a == 4096 ? 4096u : 4096u + a);
            EXPECT_GE(p.buffer_bytes - p.tensor_offset - p.tensor_bytes, 1024u);
        }
        expect_spec_canaries(adapter, device, 61, false);
    }
    // An i64 index tensor at offset 4 would break the ABI's element alignment: 8 instead.
    HostTensor table = tensor_of(KCS_DTYPE_F32, {4, 3}, small_integers, 1);
    HostTensor index = HostTensor::zeros(KCS_DTYPE_I64, {2});
    index.set_bits(0, 3);
    Invocation gather{"gather", std::nullopt, 0, {}, {table, index}, {{KCS_DTYPE_F32, {2, 3}}}};
    expect_clean(device.run(gather, TensorPlacement{4}));
    const auto placements = device.placements();
    EXPECT_EQ(placements.at(0).tensor_offset, 4100u);
    EXPECT_EQ(placements.at(1).tensor_offset, 4104u);
}

// ---- calibration violations ------------------------------------------------

TEST(GuardedDevice, StaleOutputLeavesPoisonOnEveryRun) {
    auto adapter = open_adapter("calibration", {"violation=stale-output"});
    GuardedDevice device(adapter, 21);
    for (const double offset : {0.0, 40.0}) {  // the second run reuses the buffers
        const auto run = device.run(f32_add({5, 37}, offset, 1));
        EXPECT_TRUE(run.call.ok()) << run.call.describe();
        ASSERT_TRUE(run.checked);
        ASSERT_EQ(run.breaches.size(), 1u);
        EXPECT_EQ(run.breaches[0].signature, "stale-or-poison-left");
        EXPECT_EQ(run.breaches[0].detail,
                  "output 0 (f32 [5, 37]): 185 of 185 elements still hold the poison pattern 0x7fa5a5a5, "
                  "the first at element 0; run again poisoned with 0x7f9a5a5a, they held that pattern instead");
        device.reseed(22);
    }
}

TEST(GuardedDevice, TileOverrunChangesTheOutputsTrailingZone) {
    auto adapter = open_adapter("calibration", {"violation=tile-overrun"});
    const std::uint64_t seed = 31;
    GuardedDevice device(adapter, seed);
    const auto run = device.run(f32_add({7, 19}, 2, 3));
    EXPECT_TRUE(run.call.ok()) << run.call.describe();
    ASSERT_EQ(run.breaches.size(), 1u);
    const Breach& breach = run.breaches[0];
    EXPECT_EQ(breach.signature, "canary-changed");
    // Zones 0-3 guard the inputs; the output's trailing zone is 5. The
    // first changed byte is the first past the tensor, and its old value is
    // the SPEC's canary byte 0 of zone 5.
    const std::string old_byte = hex_byte(spec_canary(seed, 5, 1)[0]);
    EXPECT_EQ(breach.detail.rfind("output 0 (f32 [7, 19]): ", 0), 0u) << breach.detail;
    EXPECT_NE(breach.detail.find("changed in zone 5 after the tensor, first at end+0 (" + old_byte + " -> "),
              std::string::npos)
        << breach.detail;
    expect_sums(run, f32_add({7, 19}, 2, 3));  // the output itself is right: only the overrun is wrong
}

TEST(GuardedDevice, TileOverrunInMatmulToo) {
    auto adapter = open_adapter("calibration", {"violation=tile-overrun"});
    GuardedDevice device(adapter, 32);
    Invocation matmul{"matmul", std::nullopt, KCS_DTYPE_F32, {}, {}, {{KCS_DTYPE_F32, {3, 5}}}};
    matmul.inputs = {tensor_of(KCS_DTYPE_F32, {3, 4}, small_integers, 0),
                     tensor_of(KCS_DTYPE_F32, {4, 5}, small_integers, 1)};
    const auto run = device.run(matmul);
    ASSERT_EQ(run.breaches.size(), 1u);
    EXPECT_EQ(run.breaches[0].signature, "canary-changed");
    EXPECT_NE(run.breaches[0].detail.find("output 0 (f32 [3, 5]): "), std::string::npos);
    EXPECT_NE(run.breaches[0].detail.find("zone 5 after the tensor"), std::string::npos);
}

// Rule 2's patterns in f16 and bf16, on the device: the calibration adapter
// leaves them where the harness wrote them, and the breach names them. The
// second run, which decides, leaves its own pattern in the buffer.
TEST(GuardedDevice, PoisonPatternsOnTheDevice) {
    auto adapter = open_adapter("calibration", {"violation=stale-output"});
    GuardedDevice device(adapter, 41);
    for (const auto& [dtype, pattern] :
         {std::pair<kcs_dtype, std::string>{KCS_DTYPE_F16, "0x7d5a"}, std::pair<kcs_dtype, std::string>{KCS_DTYPE_BF16, "0x7fa5"}}) {
        const auto add = add_of(tensor_of(dtype, {33}, quarter_steps, 0), tensor_of(dtype, {33}, quarter_steps, 1));
        const auto run = device.run(add);
        ASSERT_EQ(run.breaches.size(), 1u);
        EXPECT_NE(run.breaches[0].detail.find("33 of 33 elements still hold the poison pattern " + pattern),
                  std::string::npos)
            << run.breaches[0].detail;
        const Placement out = device.placements().at(2);
        const auto bytes = read_buffer(adapter, out);
        HostTensor left{dtype, {33}, {bytes.begin() + out.tensor_offset,
                                      bytes.begin() + out.tensor_offset + out.tensor_bytes}};
        for (std::size_t i = 0; i < 33; ++i) ASSERT_EQ(left.bits(i), poison_bits(dtype, PoisonPattern::second)) << i;
    }
}

// A kernel whose genuine result is the poison pattern: gather copies table
// rows bit for bit, and a table element equal to the f32 and bf16 poison is
// a value like any other. The second run, poisoned with the other pattern,
// gives it again: no breach, and the first run's output is returned.
TEST(GuardedDevice, AResultEqualToThePoisonIsNoBreach) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 51);
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_BF16, KCS_DTYPE_F16}) {
        HostTensor table = tensor_of(dtype, {4, 3}, small_integers, 1);
        table.set_bits(4, poison_bits(dtype));
        HostTensor index = HostTensor::zeros(KCS_DTYPE_I32, {3});
        for (std::size_t i = 0; i < 3; ++i) index.set_bits(i, i == 2 ? 1 : 3);  // rows 3, 3, 1
        Invocation gather{"gather", std::nullopt, 0, {}, {table, index}, {{dtype, {3, 3}}}};
        const auto run = device.run(gather);
        expect_clean(run);
        ASSERT_EQ(run.outputs.size(), 1u);
        EXPECT_EQ(run.outputs[0].bits(7), poison_bits(dtype)) << "row 1, column 1 is table element 4";
    }
}

// ---- failed runs and lost workers ---------------------------------------------

// A run that fails with a status is still read back and checked (canaries
// and inputs); its outputs are not judged, so their poison is no breach.
TEST(GuardedDevice, FailedRunIsStillChecked) {
    auto adapter = open_adapter("reference-cpu");
    GuardedDevice device(adapter, 51);
    auto add = f32_add({8}, 0, 1);
    add.inputs[1] = tensor_of(KCS_DTYPE_F32, {9}, quarter_steps, 0);  // shapes differ: no broadcasting
    const auto run = device.run(add);
    EXPECT_EQ(run.call.status, KCS_INVALID_ARGUMENT) << run.call.describe();
    EXPECT_EQ(run.step, GuardedStep::run);
    EXPECT_TRUE(run.checked);
    EXPECT_TRUE(run.breaches.empty());
    EXPECT_TRUE(run.outputs.empty());
}

#ifdef KCS_FIXTURE_DIR
// A crash costs the run: no read-back, no breaches; the next run allocates
// in the fresh worker.
TEST(GuardedDevice, LostWorkerEndsTheRunAndBuffersAreAllocatedAgain) {
    host::IsolationOptions isolation;
    isolation.adapter_options = {"fault=segv"};
    isolation.call_timeout = 10s;
    host::IsolatedAdapter adapter(std::filesystem::path(KCS_FIXTURE_DIR) / "libkcs-adapter-fixture.so", isolation);
    GuardedDevice device(adapter, 61);
    Invocation faulty{"faulty", std::nullopt, 0, {}, {tensor_of(KCS_DTYPE_F32, {16}, quarter_steps, 0)},
                      {{KCS_DTYPE_F32, {16}}}};
    const auto crashed = device.run(faulty);
    EXPECT_TRUE(crashed.call.worker_lost()) << crashed.call.describe();
    EXPECT_EQ(crashed.step, GuardedStep::run);
    EXPECT_FALSE(crashed.checked);
    EXPECT_TRUE(crashed.breaches.empty());
    const auto generation = adapter.generation();

    const auto add = f32_add({16}, 0, 1);
    const auto run = device.run(add);
    expect_clean(run);
    expect_sums(run, add);
    EXPECT_GT(adapter.generation(), generation);
    for (const auto& at : device.placements()) EXPECT_EQ(at.buffer.generation, adapter.generation());
}

// Rule 3 on a device: the fixture's clobber-input fault adds 1 to the first
// input element during the run; the read-back differs from what was written,
// and the breach carries both SHA-256 digests and the first changed byte.
TEST(GuardedDevice, ModifiedInputIsCaughtOnTheDevice) {
    host::IsolationOptions isolation;
    isolation.adapter_options = {"fault=clobber-input"};
    isolation.call_timeout = 10s;
    host::IsolatedAdapter adapter(std::filesystem::path(KCS_FIXTURE_DIR) / "libkcs-adapter-fixture.so", isolation);
    GuardedDevice device(adapter, 62);
    Invocation faulty{"faulty", std::nullopt, 0, {}, {tensor_of(KCS_DTYPE_F32, {16}, quarter_steps, 2)},
                      {{KCS_DTYPE_F32, {16}}}};
    for (int seed = 0; seed < 2; ++seed) {  // and again in the reused buffers and images
        const auto run = device.run(faulty);
        EXPECT_TRUE(run.call.ok()) << run.call.describe();
        ASSERT_EQ(run.breaches.size(), 1u);
        EXPECT_EQ(run.breaches[0].signature, "input-modified");
        const auto& detail = run.breaches[0].detail;
        EXPECT_EQ(detail.rfind("input 0 (f32 [16]): SHA-256 " + guarded::hex(guarded::sha256(faulty.inputs[0].bytes)) +
                                   " when written, ",
                               0),
                  0u)
            << detail;
        EXPECT_NE(detail.find("bytes differ, the first at byte "), std::string::npos) << detail;
        EXPECT_NE(detail.find("(element 0)"), std::string::npos) << detail;
        EXPECT_GT(adapter.shared_transfers(), 0u);
        device.reseed(63);
    }
}
#endif

// ---- the checks on hand-made images -----------------------------------------

struct HandMade {
    guarded::BufferLayout layout;
    std::vector<std::byte> written;
    std::vector<std::byte> read_back;
    guarded::TensorImages images(bool is_input, std::size_t position) const {
        return {guarded::tensor_name(is_input, 0, KCS_DTYPE_F32, {6}), is_input, KCS_DTYPE_F32, position, layout,
                written, read_back};
    }
};

HandMade hand_made(bool poisoned_output) {
    HandMade h;
    h.layout = guarded::layout_for(24);
    h.written.resize(h.layout.total_bytes());
    guarded::fill_canary(std::span(h.written).first(1024), 5, 0);
    const auto tensor = std::span(h.written).subspan(1024, 24);
    if (poisoned_output) guarded::fill_poison(tensor, KCS_DTYPE_F32);
    else for (std::size_t i = 0; i < 24; ++i) tensor[i] = std::byte(i);
    guarded::fill_canary(std::span(h.written).subspan(h.layout.after_offset()), 5, 1);
    h.read_back = h.written;
    return h;
}

TEST(GuardedChecks, LayoutKeepsTheTensorAlignedBetweenWholeZones) {
    for (const std::uint64_t bytes : {0u, 1u, 63u, 64u, 65u, 740u}) {
        const auto layout = guarded::layout_for(bytes);
        EXPECT_EQ(layout.tensor_offset(), 1024u);
        EXPECT_EQ(layout.after_offset(), 1024u + bytes);
        EXPECT_GE(layout.after_bytes, 1024u);
        EXPECT_LT(layout.after_bytes, 1024u + 64u);
        EXPECT_EQ(layout.total_bytes() % 64, 0u) << bytes;
    }
}

TEST(GuardedChecks, FillCanaryIsTheSpecFormula) {
    std::vector<std::byte> zone(1043);  // not a whole number of blocks
    guarded::fill_canary(zone, 0xFEDCBA9876543210u, 9);
    EXPECT_EQ(zone, spec_canary(0xFEDCBA9876543210u, 9, zone.size()));
}

TEST(GuardedChecks, ChangedCanariesNameZoneEdgeAndBytes) {
    HandMade h = hand_made(false);
    h.read_back[1024 - 12] ^= std::byte{0xFF};  // in the leading zone
    h.read_back[1024 - 3] ^= std::byte{0x01};
    h.read_back[1024 + 24 + 2] = ~h.written[1024 + 24 + 2];  // in the trailing zone
    const auto breaches = guarded::check_canaries(h.images(true, 1));
    ASSERT_EQ(breaches.size(), 2u);
    const auto old_byte = [&](std::size_t i) { return hex_byte(h.written[i]); };
    const auto new_byte = [&](std::size_t i) { return hex_byte(h.read_back[i]); };
    EXPECT_EQ(breaches[0].signature, "canary-changed");
    EXPECT_EQ(breaches[0].detail, "input 0 (f32 [6]): 2 of 1024 canary bytes changed in zone 2 before the tensor, "
                                  "first at start-12 (" + old_byte(1012) + " -> " + new_byte(1012) +
                                      "), last at start-3 (" + old_byte(1021) + " -> " + new_byte(1021) + ")");
    EXPECT_EQ(breaches[1].detail, "input 0 (f32 [6]): 1 of " + std::to_string(h.layout.after_bytes) +
                                      " canary bytes changed in zone 3 after the tensor, first at end+2 (" +
                                      old_byte(1050) + " -> " + new_byte(1050) + "), last at end+2 (" +
                                      old_byte(1050) + " -> " + new_byte(1050) + ")");
}

// No adapter in the tree modifies its inputs, so input-modified is shown here.
TEST(GuardedChecks, ModifiedInputIsReportedWithItsHashes) {
    HandMade h = hand_made(false);
    h.read_back[1024 + 9] = std::byte{0x77};
    const auto images = h.images(true, 0);
    const auto breaches = guarded::check_input(images);
    ASSERT_EQ(breaches.size(), 1u);
    EXPECT_EQ(breaches[0].signature, "input-modified");
    const auto before = guarded::sha256(std::span(h.written).subspan(1024, 24));
    const auto after = guarded::sha256(std::span(h.read_back).subspan(1024, 24));
    EXPECT_EQ(breaches[0].detail, "input 0 (f32 [6]): SHA-256 " + guarded::hex(before) + " when written, " +
                                      guarded::hex(after) +
                                      " after the run; 1 bytes differ, the first at byte 9 (element 2)");
    EXPECT_EQ(guarded::hex(before).size(), 64u);
    EXPECT_NE(before, after);
}

// Canaries and inputs are checked whatever the run returned; poison only
// after KCS_OK.
TEST(GuardedChecks, CanariesAndInputsCountEvenWhenTheRunFailed) {
    HandMade input = hand_made(false);
    input.read_back[1024 + 1] ^= std::byte{1};
    HandMade output = hand_made(true);
    output.read_back[1024 + 24] ^= std::byte{1};  // end+0 of the output's trailing zone
    const std::vector<guarded::TensorImages> run{input.images(true, 0), output.images(false, 1)};

    const auto failed = guarded::check_run(run);
    ASSERT_EQ(failed.size(), 2u);
    EXPECT_EQ(failed[0].signature, "input-modified");
    EXPECT_EQ(failed[1].signature, "canary-changed");

    const auto poisoned = guarded::check_poison(output.images(false, 1));
    ASSERT_EQ(poisoned.size(), 1u);
    EXPECT_EQ(poisoned[0].signature, "stale-or-poison-left");
    EXPECT_EQ(poisoned[0].detail,
              "output 0 (f32 [6]): 6 of 6 elements still hold the poison pattern 0x7fa5a5a5, the first at element 0");
}

// Rule 2 decided by the second run: an element that held the first
// pattern is a result if the second run gives it again (or a NaN where it
// was NaN), unwritten if it shows the second pattern or another value.
TEST(GuardedChecks, TheSecondRunTellsAResultEqualToThePoisonFromUnwrittenMemory) {
    const auto f32 = [](std::initializer_list<std::uint32_t> bits) {
        std::vector<std::byte> bytes;
        for (const std::uint32_t b : bits)
            for (int k = 0; k < 4; ++k) bytes.push_back(static_cast<std::byte>(b >> (8 * k)));
        return bytes;
    };
    const std::uint32_t p1 = 0x7FA5A5A5u, p2 = 0x7F9A5A5Au;
    EXPECT_EQ(guarded::poisoned_elements(f32({1, p1, 3, p1}), KCS_DTYPE_F32, PoisonPattern::first),
              (std::vector<std::size_t>{1, 3}));
    // The same bits again, and a NaN for a NaN: written.
    EXPECT_TRUE(guarded::check_rerun("out", KCS_DTYPE_F32, {1, 3}, f32({1, p1, 3, p1}), f32({1, p1, 3, 0x7FC00000u}))
                    .empty());
    // The second pattern: untouched both times.
    const auto both = guarded::check_rerun("out", KCS_DTYPE_F32, {1, 3}, f32({1, p1, 3, p1}), f32({1, p2, 3, p1}));
    ASSERT_EQ(both.size(), 1u);
    EXPECT_EQ(both[0].signature, "stale-or-poison-left");
    EXPECT_EQ(both[0].detail,
              "out: 1 of 4 elements still hold the poison pattern 0x7fa5a5a5, the first at element 1; run again "
              "poisoned with 0x7f9a5a5a, they held that pattern instead");
    // A number the second time: the first run did not write it.
    const auto changed = guarded::check_rerun("out", KCS_DTYPE_F32, {1}, f32({1, p1}), f32({1, 0x3F800000u}));
    ASSERT_EQ(changed.size(), 1u);
    EXPECT_NE(changed[0].detail.find("1 of them gave another value (element 1: 0x3f800000), so the first run left "
                                     "them unwritten"),
              std::string::npos)
        << changed[0].detail;
}

TEST(GuardedChecks, PoisonCountsOnlyWholeElements) {
    HandMade h = hand_made(true);
    h.read_back[1024 + 4 * 0 + 1] = std::byte{0};  // element 0 written (partly: it is no longer poison)
    h.read_back[1024 + 4 * 5] = std::byte{0};      // element 5 too
    const auto breaches = guarded::check_poison(h.images(false, 0));
    ASSERT_EQ(breaches.size(), 1u);
    EXPECT_NE(breaches[0].detail.find("4 of 6 elements still hold the poison pattern 0x7fa5a5a5, the first at element 1"),
              std::string::npos)
        << breaches[0].detail;
}

// ---- poison patterns and HostTensor ------------------------------------------

TEST(PoisonBits, TheSecondPatternsDifferFromTheFirstAndAreSignallingNansToo) {
    EXPECT_EQ(poison_bits(KCS_DTYPE_F32, PoisonPattern::second), 0x7F9A5A5Au);
    EXPECT_EQ(poison_bits(KCS_DTYPE_F16, PoisonPattern::second), 0x7CA5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_BF16, PoisonPattern::second), 0x7F9Au);
    EXPECT_EQ(poison_bits(KCS_DTYPE_F64, PoisonPattern::second), 0x7FF25A5A5A5A5A5Au);
    for (const kcs_dtype d : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16, KCS_DTYPE_F64, KCS_DTYPE_I8, KCS_DTYPE_I32,
                              KCS_DTYPE_I64, KCS_DTYPE_U8})
        EXPECT_NE(poison_bits(d, PoisonPattern::second), poison_bits(d)) << d;
    HostTensor f32 = HostTensor::zeros(KCS_DTYPE_F32, {1});
    f32.set_bits(0, poison_bits(KCS_DTYPE_F32, PoisonPattern::second));
    EXPECT_TRUE(std::isnan(f32.value(0)));
    EXPECT_EQ(poison_bits(KCS_DTYPE_F32, PoisonPattern::second) & 0x00400000u, 0u);  // quiet bit clear
    EXPECT_EQ(poison_bits(KCS_DTYPE_F16, PoisonPattern::second) & 0x0200u, 0u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_BF16, PoisonPattern::second) & 0x0040u, 0u);
}

TEST(PoisonBits, AreTheSpecPatterns) {
    EXPECT_EQ(poison_bits(KCS_DTYPE_F32), 0x7FA5A5A5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_F16), 0x7D5Au);
    EXPECT_EQ(poison_bits(KCS_DTYPE_BF16), 0x7FA5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_F64), 0x7FF4A5A5A5A5A5A5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_I8), 0xA5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_U8), 0xA5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_I32), 0xA5A5A5A5u);
    EXPECT_EQ(poison_bits(KCS_DTYPE_I64), 0xA5A5A5A5A5A5A5A5u);
    EXPECT_THROW(poison_bits(99), std::invalid_argument);
}

TEST(PoisonBits, FloatPatternsAreSignallingNans) {
    EXPECT_EQ(ref::classify(ref::Format::f32, 0x7FA5A5A5u), ref::FloatClass::signalling_nan);
    EXPECT_EQ(ref::classify(ref::Format::f16, 0x7D5Au), ref::FloatClass::signalling_nan);
    EXPECT_EQ(ref::classify(ref::Format::bf16, 0x7FA5u), ref::FloatClass::signalling_nan);
    const std::uint64_t f64 = poison_bits(KCS_DTYPE_F64);
    EXPECT_EQ((f64 >> 52) & 0x7FF, 0x7FFu);              // exponent all ones
    EXPECT_EQ((f64 >> 51) & 1, 0u);                      // quiet bit clear
    EXPECT_NE(f64 & ((std::uint64_t{1} << 51) - 1), 0u);  // payload: a NaN, not infinity
}

TEST(PoisonBits, FillRepeatsTheLittleEndianPattern) {
    std::vector<std::byte> bytes(6);
    guarded::fill_poison(bytes, KCS_DTYPE_F16);
    EXPECT_EQ(bytes, (std::vector<std::byte>{std::byte{0x5A}, std::byte{0x7D}, std::byte{0x5A}, std::byte{0x7D},
                                             std::byte{0x5A}, std::byte{0x7D}}));
}

// Every length from nothing to several doublings, with a partial last
// element (a buffer's slack): byte k is byte k % size of the pattern.
TEST(PoisonBits, FillCoversEveryByteOfAnyLength) {
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_F64, KCS_DTYPE_BF16, KCS_DTYPE_I8}) {
        const std::size_t size = dtype_size(dtype);
        const std::uint64_t pattern = poison_bits(dtype, PoisonPattern::second);
        for (std::size_t length : {0u, 1u, 3u, 7u, 8u, 9u, 63u, 64u, 1000u, 4099u}) {
            std::vector<std::byte> bytes(length, std::byte{0x11});
            guarded::fill_poison(bytes, dtype, PoisonPattern::second);
            for (std::size_t k = 0; k < length; ++k)
                ASSERT_EQ(bytes[k], static_cast<std::byte>(pattern >> (8 * (k % size))))
                    << dtype_name(dtype) << " length " << length << " byte " << k;
        }
    }
}

TEST(HostTensor, ElementBitsRoundTripAtEverySize) {
    for (const kcs_dtype dtype : {KCS_DTYPE_I8, KCS_DTYPE_F16, KCS_DTYPE_F32, KCS_DTYPE_F64}) {
        HostTensor t = HostTensor::zeros(dtype, {3});
        const std::size_t size = dtype_size(dtype);
        const std::uint64_t mask = size == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * size)) - 1;
        t.set_bits(1, 0x8877665544332211u);
        EXPECT_EQ(t.bits(1), 0x8877665544332211u & mask) << dtype_name(dtype);
        EXPECT_EQ(t.bits(0), 0u);
        EXPECT_EQ(t.bits(2), 0u);
        EXPECT_EQ(t.bytes[size], std::byte{0x11});  // little-endian: the low byte first
        EXPECT_THROW(t.bits(3), std::out_of_range);
        EXPECT_THROW(t.set_bits(3, 0), std::out_of_range);
    }
}

// All at once, as generated tensors are filled: the same bytes as one by one.
TEST(HostTensor, AllBitsAtOnceEqualOneByOne) {
    const std::vector<std::uint64_t> all{0x8877665544332211u, 0x1u, 0xFFFFu};
    for (const kcs_dtype dtype : {KCS_DTYPE_I8, KCS_DTYPE_F16, KCS_DTYPE_F32, KCS_DTYPE_I64}) {
        HostTensor at_once = HostTensor::zeros(dtype, {3});
        HostTensor one_by_one = HostTensor::zeros(dtype, {3});
        at_once.set_all_bits(std::span<const std::uint64_t>(all));
        for (std::size_t i = 0; i < all.size(); ++i) one_by_one.set_bits(i, all[i]);
        EXPECT_EQ(at_once.bytes, one_by_one.bytes) << dtype_name(dtype);
        EXPECT_THROW(at_once.set_all_bits(std::span<const std::uint64_t>(all).first(2)), std::invalid_argument);
    }
}

TEST(HostTensor, ShapesAndSizes) {
    EXPECT_EQ(HostTensor::zeros(KCS_DTYPE_F32, {}).elements(), 1u);  // a scalar
    EXPECT_EQ(HostTensor::zeros(KCS_DTYPE_BF16, {3, 0, 2}).bytes.size(), 0u);
    EXPECT_EQ(HostTensor::zeros(KCS_DTYPE_F64, {2, 3}).bytes.size(), 48u);
    EXPECT_EQ(HostTensor::zeros(KCS_DTYPE_I8, {5}).bytes.size(), 5u);
    EXPECT_THROW(HostTensor::zeros(KCS_DTYPE_F32, {2, -1}), std::invalid_argument);
    EXPECT_EQ(dtype_name(KCS_DTYPE_BF16), "bf16");
    EXPECT_EQ(dtype_name(42), "dtype 42");
}

TEST(HostTensor, BitsAreLittleEndian) {
    auto t = HostTensor::zeros(KCS_DTYPE_I32, {2});
    t.set_bits(1, 0x11223344u);
    EXPECT_EQ(t.bytes[4], std::byte{0x44});
    EXPECT_EQ(t.bytes[7], std::byte{0x11});
    EXPECT_EQ(t.bits(1), 0x11223344u);
    EXPECT_EQ(t.bits(0), 0u);
    EXPECT_THROW(t.bits(2), std::out_of_range);
    EXPECT_THROW(t.set_bits(2, 0), std::out_of_range);
}

TEST(HostTensor, FloatValuesRoundTripAndRoundToNearestEven) {
    auto f32 = HostTensor::zeros(KCS_DTYPE_F32, {3});
    f32.set_value(0, 0.1);
    EXPECT_EQ(f32.value(0), static_cast<double>(0.1f));
    f32.set_value(1, 1 + 0x1p-24);  // a tie: to the even 1
    EXPECT_EQ(f32.value(1), 1.0);
    f32.set_value(2, -0x1p-149);
    EXPECT_EQ(f32.bits(2), 0x80000001u);

    auto f16 = HostTensor::zeros(KCS_DTYPE_F16, {3});
    f16.set_value(0, 1 + 0x1p-11);      // tie between 1 and 1 + 2^-10: even is 1
    f16.set_value(1, 1 + 3 * 0x1p-11);  // tie between 1 + 2^-10 and 1 + 2^-9: even is 1 + 2^-9
    f16.set_value(2, 65520);            // rounds to infinity
    EXPECT_EQ(f16.value(0), 1.0);
    EXPECT_EQ(f16.value(1), 1 + 0x1p-9);
    EXPECT_EQ(f16.bits(2), 0x7C00u);

    auto bf16 = HostTensor::zeros(KCS_DTYPE_BF16, {2});
    bf16.set_value(0, 1 + 0x1p-8);  // tie: even is 1
    bf16.set_value(1, -3.5);
    EXPECT_EQ(bf16.value(0), 1.0);
    EXPECT_EQ(bf16.bits(1), 0xC060u);
    EXPECT_EQ(bf16.value(1), -3.5);

    auto f64 = HostTensor::zeros(KCS_DTYPE_F64, {1});
    f64.set_value(0, 0.1);
    EXPECT_EQ(f64.value(0), 0.1);
    EXPECT_EQ(f64.bits(0), 0x3FB999999999999Au);

    // A poisoned element reads as a NaN.
    f32.set_bits(0, poison_bits(KCS_DTYPE_F32));
    EXPECT_TRUE(std::isnan(f32.value(0)));
}

TEST(HostTensor, IntegerValues) {
    auto i8 = HostTensor::zeros(KCS_DTYPE_I8, {2});
    i8.set_value(0, -128);
    i8.set_value(1, -1);
    EXPECT_EQ(i8.value(0), -128);
    EXPECT_EQ(i8.bits(1), 0xFFu);
    EXPECT_EQ(i8.value(1), -1);
    EXPECT_THROW(i8.set_value(0, 128), std::invalid_argument);

    auto u8 = HostTensor::zeros(KCS_DTYPE_U8, {1});
    u8.set_value(0, 255);
    EXPECT_EQ(u8.value(0), 255);
    EXPECT_THROW(u8.set_value(0, -1), std::invalid_argument);

    auto i32 = HostTensor::zeros(KCS_DTYPE_I32, {1});
    i32.set_value(0, -0x1p31);
    EXPECT_EQ(i32.bits(0), 0x80000000u);
    EXPECT_EQ(i32.value(0), -0x1p31);
    EXPECT_THROW(i32.set_value(0, 0.5), std::invalid_argument);

    auto i64 = HostTensor::zeros(KCS_DTYPE_I64, {1});
    i64.set_value(0, -0x1p53);
    EXPECT_EQ(i64.value(0), -0x1p53);
    EXPECT_EQ(i64.bits(0), static_cast<std::uint64_t>(-(std::int64_t{1} << 53)));
    EXPECT_THROW(i64.set_value(0, 0x1p63), std::invalid_argument);
    EXPECT_THROW(i64.set_value(0, std::nan("")), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::harness
