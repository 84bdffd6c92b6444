// All 2^32 f32 encodings -> f16 and -> bf16 under round-to-nearest-even,
// through the batch fast paths (the scalar ones on every 16th block of
// 2^16 encodings), compared bit for bit with
// independent implementations:
//  f16:  the CPU's F16C instruction (VCVTPS2PH). It quiets a signalling NaN
//        and keeps the sign and top payload bits as we do, so NaNs are
//        compared bit for bit too (the test would say so otherwise);
//  bf16: plain_f32_to_bf16 below, a deliberately simple integer rounding
//        written from the definition, itself checked on curated vectors.
// Two threads split the range; the wall time is printed.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "f16c_reference.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

// Round to nearest even on the dropped low half, the carry running into the
// exponent (up to inf); a NaN is quieted with its sign and top payload kept.
std::uint16_t plain_f32_to_bf16(std::uint32_t bits) {
    const bool nan = (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
    if (nan) return static_cast<std::uint16_t>((bits >> 16) | 0x0040u);
    std::uint32_t upper = bits >> 16;
    const std::uint32_t lower = bits & 0xFFFFu;
    if (lower > 0x8000u || (lower == 0x8000u && (upper & 1u) != 0)) upper += 1;
    return static_cast<std::uint16_t>(upper);
}

TEST(PlainBf16Reference, CuratedVectors) {
    EXPECT_EQ(plain_f32_to_bf16(0x3E89CCD5u), 0x3E8Au);
    EXPECT_EQ(plain_f32_to_bf16(0x3F808000u), 0x3F80u);
    EXPECT_EQ(plain_f32_to_bf16(0x3F818000u), 0x3F82u);
    EXPECT_EQ(plain_f32_to_bf16(0x7F800001u), 0x7FC0u);
    EXPECT_EQ(plain_f32_to_bf16(0x7F7FFFFFu), 0x7F80u);
    EXPECT_EQ(plain_f32_to_bf16(0xFF7F8000u), 0xFF80u);
}

// The first mismatch of one comparison and how many there were.
struct Mismatches {
    std::uint64_t count = 0;
    std::uint32_t first_input = 0;
    std::uint32_t ours = 0, theirs = 0;

    // Compares one chunk; the element loop runs only where memcmp found a difference.
    void compare(std::uint64_t base, const std::vector<std::uint16_t>& got, const std::vector<std::uint16_t>& want) {
        if (std::memcmp(got.data(), want.data(), got.size() * sizeof got[0]) == 0) return;
        for (std::size_t i = 0; i < got.size(); ++i) {
            if (got[i] == want[i]) continue;
            if (count++ == 0) {
                first_input = static_cast<std::uint32_t>(base + i);
                ours = got[i];
                theirs = want[i];
            }
        }
    }
};

struct SweepResult {
    Mismatches f16_batch, f16_scalar, bf16_batch, bf16_scalar;
};

constexpr std::size_t kChunk = 1 << 16;
// The scalar entry points run the same kernels as the batch ones; they are
// swept over every 16th chunk so that the test keeps to its time budget.
constexpr std::uint64_t kScalarChunkStride = 16;

// Converts the encodings [begin, end) chunk by chunk through every path.
SweepResult sweep(std::uint64_t begin, std::uint64_t end) {
    SweepResult r;
    std::vector<float> in(kChunk);
    std::vector<std::uint16_t> f16(kChunk), f16_hw(kChunk), bf16(kChunk), bf16_plain(kChunk);
    for (std::uint64_t base = begin; base < end; base += kChunk) {
        for (std::size_t i = 0; i < kChunk; ++i) {
            const auto bits = static_cast<std::uint32_t>(base + i);
            std::memcpy(&in[i], &bits, sizeof bits);
            bf16_plain[i] = plain_f32_to_bf16(bits);
        }
        test_support::f16c_f32_to_f16(in.data(), f16_hw.data(), kChunk);
        f32_to_f16(in.data(), f16.data(), kChunk);
        r.f16_batch.compare(base, f16, f16_hw);
        f32_to_bf16(in.data(), bf16.data(), kChunk);
        r.bf16_batch.compare(base, bf16, bf16_plain);
        if ((base / kChunk) % kScalarChunkStride != 0) continue;
        for (std::size_t i = 0; i < kChunk; ++i) {
            f16[i] = f32_to_f16(in[i]);
            bf16[i] = f32_to_bf16(in[i]);
        }
        r.f16_scalar.compare(base, f16, f16_hw);
        r.bf16_scalar.compare(base, bf16, bf16_plain);
    }
    return r;
}

void expect_none(const Mismatches& m, const char* what) {
    EXPECT_EQ(m.count, 0u) << what << ": first mismatch at f32 0x" << std::hex << m.first_input << ": ours 0x"
                           << m.ours << ", reference 0x" << m.theirs;
}

TEST(ExhaustiveF32ToHalf, AllEncodingsNearestEven) {
    if (!test_support::cpu_has_f16c()) GTEST_SKIP() << "this CPU has no F16C: no independent f16 reference";
    constexpr std::uint64_t kAll = std::uint64_t{1} << 32;
    constexpr std::uint64_t kHalf = kAll / 2;  // a multiple of kChunk
    const auto start = std::chrono::steady_clock::now();
    SweepResult low, high;
    std::thread worker([&] { high = sweep(kHalf, kAll); });
    low = sweep(0, kHalf);
    worker.join();
    const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
    std::printf("[ timing   ] 2^32 f32 encodings -> f16, bf16 on 2 threads: %.2f s\n",
                wall.count());

    for (const SweepResult* r : {&low, &high}) {
        expect_none(r->f16_batch, "f16 batch vs F16C");
        expect_none(r->f16_scalar, "f16 scalar vs F16C");
        expect_none(r->bf16_batch, "bf16 batch vs plain reference");
        expect_none(r->bf16_scalar, "bf16 scalar vs plain reference");
    }
}

}  // namespace
}  // namespace kcs::ref
