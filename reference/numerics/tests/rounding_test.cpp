// encode under every rounding mode on ties and boundaries, from f64 and
// from f32, and through the fast f32 paths. Each expected encoding is
// worked out in the comment beside it.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

constexpr Rounding kRne = Rounding::nearest_even;
constexpr Rounding kRtz = Rounding::toward_zero;
constexpr Rounding kAway = Rounding::nearest_away;
constexpr Rounding kTrunc = Rounding::truncate;

struct Expected {
    std::uint32_t rne, rtz, away, trunc;
};

// Checks one value under the four modes, through every path that takes it:
// encode(double), and when the value is an f32, encode(float) and the fast path.
void expect_all_modes(Format format, double value, Expected e) {
    SCOPED_TRACE(::testing::Message() << info(format).name << " value " << value);
    const Rounding modes[] = {kRne, kRtz, kAway, kTrunc};
    const std::uint32_t expected[] = {e.rne, e.rtz, e.away, e.trunc};
    const auto as_float = static_cast<float>(value);
    const bool is_f32 = static_cast<double>(as_float) == value;
    for (int m = 0; m < 4; ++m) {
        SCOPED_TRACE(::testing::Message() << "mode " << m);
        EXPECT_EQ(encode(format, value, modes[m]), expected[m]);
        if (!is_f32) continue;
        EXPECT_EQ(encode(format, as_float, modes[m]), expected[m]);
        if (format == Format::f16) {
            EXPECT_EQ(f32_to_f16(as_float, modes[m]), expected[m]);
        }
        if (format == Format::bf16) {
            EXPECT_EQ(f32_to_bf16(as_float, modes[m]), expected[m]);
        }
    }
}

TEST(RoundingF16, TopOfTheRange) {
    // 65504 = 0x7BFF is the largest finite; the next step would be 65536 = 2^16.
    expect_all_modes(Format::f16, 65504.0, {0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF});
    // 65519.99 is below the midpoint 65520: nearest is 65504; toward zero too.
    expect_all_modes(Format::f16, 65519.99, {0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF});
    // The f32 just below 65520 (65520 - 2^-8) behaves the same.
    expect_all_modes(Format::f16, 65520.0 - 0x1p-8, {0x7BFF, 0x7BFF, 0x7BFF, 0x7BFF});
    // 65520 is the midpoint of 65504 (odd trailing 0x3FF) and 2^16: ties to
    // even and away both go up, and 2^16 overflows to inf; toward zero stays.
    expect_all_modes(Format::f16, 65520.0, {0x7C00, 0x7BFF, 0x7C00, 0x7BFF});
    expect_all_modes(Format::f16, -65520.0, {0xFC00, 0xFBFF, 0xFC00, 0xFBFF});
    expect_all_modes(Format::f16, 65536.0, {0x7C00, 0x7BFF, 0x7C00, 0x7BFF});
    expect_all_modes(Format::f16, 1e10, {0x7C00, 0x7BFF, 0x7C00, 0x7BFF});
    expect_all_modes(Format::f16, -1e300, {0xFC00, 0xFBFF, 0xFC00, 0xFBFF});
    // An infinity stays infinite in every mode, truncate included.
    const double inf = std::numeric_limits<double>::infinity();
    expect_all_modes(Format::f16, inf, {0x7C00, 0x7C00, 0x7C00, 0x7C00});
    expect_all_modes(Format::f16, -inf, {0xFC00, 0xFC00, 0xFC00, 0xFC00});
}

TEST(RoundingF16, TiesInTheNormalRange) {
    // 1 = 0x3C00, spacing 2^-10. 1 + 2^-11 is the midpoint of 0x3C00 (even) and 0x3C01.
    expect_all_modes(Format::f16, 1.0 + 0x1p-11, {0x3C00, 0x3C00, 0x3C01, 0x3C00});
    expect_all_modes(Format::f16, -(1.0 + 0x1p-11), {0xBC00, 0xBC00, 0xBC01, 0xBC00});
    // 1 + 3*2^-11: midpoint of 0x3C01 (odd) and 0x3C02: even is up.
    expect_all_modes(Format::f16, 1.0 + 3 * 0x1p-11, {0x3C02, 0x3C01, 0x3C02, 0x3C01});
    // Just above and below a midpoint: no tie, nearest decides.
    expect_all_modes(Format::f16, 1.0 + 0x1p-11 + 0x1p-23, {0x3C01, 0x3C00, 0x3C01, 0x3C00});
    expect_all_modes(Format::f16, 1.0 + 0x1p-11 - 0x1p-23, {0x3C00, 0x3C00, 0x3C00, 0x3C00});
    // A carry through the whole significand: 2 - 2^-11 is the midpoint of
    // 0x3FFF (2 - 2^-10, odd) and 0x4000 (2).
    expect_all_modes(Format::f16, 2.0 - 0x1p-11, {0x4000, 0x3FFF, 0x4000, 0x3FFF});
    // 0.1: 0.1 * 2^14 = 1638.4 -> 1638 = 0x666 below 2^11: encoding 0x2E66 (1638 = 1024 + 614).
    expect_all_modes(Format::f16, 0.1, {0x2E66, 0x2E66, 0x2E66, 0x2E66});
}

TEST(RoundingF16, TiesInTheSubnormalRange) {
    // Subnormal spacing 2^-24. 2^-25 is the midpoint of 0 (even) and 0x0001.
    expect_all_modes(Format::f16, 0x1p-25, {0x0000, 0x0000, 0x0001, 0x0000});
    expect_all_modes(Format::f16, -0x1p-25, {0x8000, 0x8000, 0x8001, 0x8000});  // -0 keeps its sign
    // 3 * 2^-25: midpoint of 0x0001 (odd) and 0x0002.
    expect_all_modes(Format::f16, 3 * 0x1p-25, {0x0002, 0x0001, 0x0002, 0x0001});
    // 5 * 2^-25: midpoint of 0x0002 (even) and 0x0003.
    expect_all_modes(Format::f16, 5 * 0x1p-25, {0x0002, 0x0002, 0x0003, 0x0002});
    // Just above half the smallest subnormal rounds up to it.
    expect_all_modes(Format::f16, 0x1p-25 + 0x1p-40, {0x0001, 0x0000, 0x0001, 0x0000});
    // A quarter of the smallest subnormal: 0 in every mode.
    expect_all_modes(Format::f16, 0x1p-26, {0x0000, 0x0000, 0x0000, 0x0000});
    // 1023.5 * 2^-24, the midpoint of the largest subnormal 0x03FF (odd) and the smallest normal 0x0400.
    expect_all_modes(Format::f16, 1023.5 * 0x1p-24, {0x0400, 0x03FF, 0x0400, 0x03FF});
    // The smallest f32 subnormal, 2^-149, is far below: 0.
    expect_all_modes(Format::f16, 0x1p-149, {0x0000, 0x0000, 0x0000, 0x0000});
    expect_all_modes(Format::f16, -0.0, {0x8000, 0x8000, 0x8000, 0x8000});
}

TEST(RoundingF16, FromF64WithoutDoubleRounding) {
    // x = 1 + 2^-11 + 2^-30 lies just above the f16 midpoint 1 + 2^-11: RNE gives 0x3C01.
    // Through f32 first, 2^-30 is lost (below half of f32's 2^-23), leaving the
    // exact midpoint, which ties to even 0x3C00: the double rounding encode avoids.
    const double x = 1.0 + 0x1p-11 + 0x1p-30;
    EXPECT_EQ(encode(Format::f16, x), 0x3C01u);
    EXPECT_EQ(f32_to_f16(static_cast<float>(x)), 0x3C00u);
    // The same for bf16 at 1 + 2^-8 + 2^-30.
    EXPECT_EQ(encode(Format::bf16, 1.0 + 0x1p-8 + 0x1p-30), 0x3F81u);
    EXPECT_EQ(f32_to_bf16(static_cast<float>(1.0 + 0x1p-8 + 0x1p-30)), 0x3F80u);
}

TEST(RoundingBf16, CuratedVectors) {
    // 0x3E89CCD5: the dropped half 0xCCD5 is above 0x8000: up to 0x3E8A.
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0x3E89CCD5u)), 0x3E8Au);
    // 0x3F808000 = 1 + 2^-8: the midpoint of 0x3F80 (even) and 0x3F81: 0x3F80.
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0x3F808000u)), 0x3F80u);
    // 0x3F818000: the midpoint of 0x3F81 (odd) and 0x3F82: 0x3F82.
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0x3F818000u)), 0x3F82u);
    // 0x7F800001 is a signalling NaN whose payload lies only in the dropped
    // bits: a NaN it must stay (quieted: 0x7FC0), not inf (0x7F80).
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0x7F800001u)), 0x7FC0u);
    for (std::uint32_t bits : {0x3E89CCD5u, 0x3F808000u, 0x3F818000u, 0x7F800001u}) {
        EXPECT_EQ(encode(Format::bf16, std::bit_cast<float>(bits)), f32_to_bf16(std::bit_cast<float>(bits)));
    }
}

TEST(RoundingBf16, TiesOverflowAndSubnormals) {
    // 1 + 2^-8 (0x3F808000) and 1 + 3*2^-8 (0x3F818000) under each mode.
    expect_all_modes(Format::bf16, 1.0 + 0x1p-8, {0x3F80, 0x3F80, 0x3F81, 0x3F80});
    expect_all_modes(Format::bf16, 1.0 + 3 * 0x1p-8, {0x3F82, 0x3F81, 0x3F82, 0x3F81});
    // 0.1 = 1.6 * 2^-4; 1.6 * 2^7 = 204.8 -> 205 = 0xCD: 0x3DCD (up), 0x3DCC toward zero.
    expect_all_modes(Format::bf16, 0.1, {0x3DCD, 0x3DCC, 0x3DCD, 0x3DCC});
    // The largest f32 0x7F7FFFFF lies above the bf16 midpoint 0x7F7F8000: inf
    // when rounding to nearest, the largest bf16 0x7F7F toward zero.
    const double f32_max = std::bit_cast<float>(0x7F7FFFFFu);
    expect_all_modes(Format::bf16, f32_max, {0x7F80, 0x7F7F, 0x7F80, 0x7F7F});
    // 0x7F7F8000: the tie above the largest bf16 (odd): even is inf.
    expect_all_modes(Format::bf16, std::bit_cast<float>(0x7F7F8000u), {0x7F80, 0x7F7F, 0x7F80, 0x7F7F});
    // Subnormal ties: f32 0x00008000 is half of the smallest bf16 subnormal 2^-133.
    expect_all_modes(Format::bf16, std::bit_cast<float>(0x00008000u), {0x0000, 0x0000, 0x0001, 0x0000});
    expect_all_modes(Format::bf16, std::bit_cast<float>(0x00018000u), {0x0002, 0x0001, 0x0002, 0x0001});
    expect_all_modes(Format::bf16, std::bit_cast<float>(0x80000001u), {0x8000, 0x8000, 0x8000, 0x8000});
    // From f64 beyond the f32 range: 1e39 overflows bf16 as well.
    expect_all_modes(Format::bf16, 1e39, {0x7F80, 0x7F7F, 0x7F80, 0x7F7F});
}

TEST(RoundingF32, FromF64) {
    // 0.1 in f32: 0x3DCCCCCD (rounded up from 0x3DCCCCCC.CCC...).
    expect_all_modes(Format::f32, 0.1, {0x3DCCCCCD, 0x3DCCCCCC, 0x3DCCCCCD, 0x3DCCCCCC});
    // 2^-150 is half the smallest f32 subnormal: ties to even 0.
    expect_all_modes(Format::f32, 0x1p-150, {0x00000000, 0x00000000, 0x00000001, 0x00000000});
    // 1e39 is beyond the f32 range.
    expect_all_modes(Format::f32, 1e39, {0x7F800000, 0x7F7FFFFF, 0x7F800000, 0x7F7FFFFF});
    // 1 + 2^-24: the midpoint of 1 (even) and 1 + 2^-23.
    expect_all_modes(Format::f32, 1.0 + 0x1p-24, {0x3F800000, 0x3F800000, 0x3F800001, 0x3F800000});
}

TEST(RoundingNaN, NearestAndTowardZeroQuietAndKeepSignAndTopPayload) {
    // f32 0x7F802000: signalling, payload bit 13 = the lowest bit f16 keeps.
    const float snan_low = std::bit_cast<float>(0x7F802000u);
    EXPECT_EQ(f32_to_f16(snan_low), 0x7E01u);                            // quiet bit 0x0200 set
    EXPECT_EQ(f32_to_f16(snan_low, Rounding::truncate), 0x7C01u);       // bits only dropped: stays signalling
    EXPECT_EQ(f32_to_f16(std::bit_cast<float>(0xFF802000u)), 0xFE01u);  // sign kept
    // f32 0x7F800001: payload only in dropped bits.
    const float snan_dropped = std::bit_cast<float>(0x7F800001u);
    EXPECT_EQ(f32_to_f16(snan_dropped), 0x7E00u);
    EXPECT_EQ(f32_to_f16(snan_dropped, Rounding::toward_zero), 0x7E00u);
    EXPECT_EQ(f32_to_f16(snan_dropped, Rounding::nearest_away), 0x7E00u);
    EXPECT_EQ(f32_to_f16(snan_dropped, Rounding::truncate), 0x7C00u);  // inf: the violator's signature
    EXPECT_EQ(f32_to_bf16(snan_dropped, Rounding::truncate), 0x7F80u);
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0xFF800001u)), 0xFFC0u);
    EXPECT_EQ(f32_to_bf16(std::bit_cast<float>(0x7FFFFFFFu)), 0x7FFFu);  // every kept payload bit
    EXPECT_EQ(f32_to_f16(std::bit_cast<float>(0x7FFFFFFFu)), 0x7FFFu);
    for (Rounding r : {kRne, kRtz, kAway, kTrunc}) {
        EXPECT_EQ(encode(Format::f16, snan_low, r), f32_to_f16(snan_low, r));
        EXPECT_EQ(encode(Format::bf16, snan_dropped, r), f32_to_bf16(snan_dropped, r));
    }
}

TEST(RoundingNaN, FromF64) {
    // f64 0x7FF0000000000001: payload in bit 0 only.
    const double snan = std::bit_cast<double>(0x7FF0000000000001u);
    EXPECT_EQ(encode(Format::f16, snan), 0x7E00u);
    EXPECT_EQ(encode(Format::bf16, snan), 0x7FC0u);
    EXPECT_EQ(encode(Format::f32, snan), 0x7FC00000u);
    EXPECT_EQ(encode(Format::f16, snan, Rounding::truncate), 0x7C00u);
    // The top payload bits of f64 (51..42) are the f16 trailing bits.
    const double payload = std::bit_cast<double>(0xFFF4000000000000u);  // signalling: quiet bit 51 clear
    EXPECT_EQ(encode(Format::f16, payload, Rounding::truncate), 0xFD00u);  // bit 50 -> f16 bit 8
    EXPECT_EQ(encode(Format::f16, payload), 0xFF00u);
}

TEST(Decode, ExactValuesOfEncodings) {
    EXPECT_EQ(decode(Format::f16, 0x3C00), 1.0);
    EXPECT_EQ(decode(Format::f16, 0xC000), -2.0);
    EXPECT_EQ(decode(Format::f16, 0x0001), 0x1p-24);
    EXPECT_EQ(decode(Format::f16, 0x03FF), 1023 * 0x1p-24);
    EXPECT_EQ(decode(Format::f16, 0x7BFF), 65504.0);
    EXPECT_EQ(decode(Format::f16, 0x2E66), 0.0999755859375);  // 1638 * 2^-14
    EXPECT_EQ(decode(Format::bf16, 0x3DCD), 0.10009765625);    // 205 * 2^-11
    EXPECT_EQ(decode(Format::bf16, 0x0001), 0x1p-133);
    EXPECT_EQ(decode(Format::bf16, 0x7F7F), 255 * 0x1p120);
    EXPECT_EQ(decode(Format::f32, 0x3DCCCCCD), static_cast<double>(0.1f));
    EXPECT_TRUE(std::signbit(decode(Format::f16, 0x8000)));
    EXPECT_EQ(decode(Format::f16, 0x8000), 0.0);
    EXPECT_EQ(decode(Format::f16, 0xFC00), -std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(decode(Format::f16, 0x7C01)));
    EXPECT_TRUE(std::signbit(decode(Format::bf16, 0xFFC0)));
    EXPECT_EQ(round_to(Format::f16, 0.1), 0.0999755859375);
    EXPECT_EQ(round_to(Format::f16, 65520.0, Rounding::toward_zero), 65504.0);
}

TEST(Decode, FastPathsToF32KeepBitsAndPayloads) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x0001)), 0x33800000u);  // 2^-24: exponent 103
    // 0x03FF = 1023 * 2^-24 = (1 + 1022/1024) * 2^-15: exponent 112, trailing 0x3FE << 13.
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x03FF)), 0x387FC000u);
    // 0x8200 = -512 * 2^-24 = -2^-15: exponent 127 - 15 = 112 = 0x70, so 0x80000000 | 0x70 << 23.
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x8200)), 0xB8000000u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x3C00)), 0x3F800000u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x7C01)), 0x7F802000u);  // signalling stays signalling
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0xFC00)), 0xFF800000u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(bf16_to_f32(0x7F81)), 0x7F810000u);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16_to_f32(0x8000)), 0x80000000u);
}

}  // namespace
}  // namespace kcs::ref
