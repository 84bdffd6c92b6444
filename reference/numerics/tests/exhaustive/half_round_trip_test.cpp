// All 2^16 f16 and bf16 encodings -> f32 -> back, exactly: every value of
// a 16-bit format is an f32, so the round trip must return the same bits.
// NaNs: a quiet NaN comes back bit for bit; a signalling NaN comes back
// quieted under round-to-nearest-even (the quiet bit set, sign and payload
// kept) and bit for bit under truncate, which only drops bits.
#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

std::uint32_t expected_after_nearest_even(Format format, std::uint32_t bits) {
    const std::uint32_t quiet_bit = format == Format::f16 ? 0x0200u : 0x0040u;
    return classify(format, bits) == FloatClass::signalling_nan ? (bits | quiet_bit) : bits;
}

TEST(ExhaustiveRoundTrip, F16ThroughF32) {
    std::vector<std::uint16_t> all(0x10000), back(0x10000);
    std::vector<float> wide(0x10000);
    for (std::uint32_t i = 0; i < 0x10000; ++i) all[i] = static_cast<std::uint16_t>(i);
    f16_to_f32(all.data(), wide.data(), all.size());
    f32_to_f16(wide.data(), back.data(), wide.size());
    for (std::uint32_t i = 0; i < 0x10000; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        const std::uint32_t want = expected_after_nearest_even(Format::f16, i);
        ASSERT_EQ(back[i], want) << std::hex << i;
        ASSERT_EQ(f32_to_f16(f16_to_f32(h)), want) << std::hex << i;
        ASSERT_EQ(f32_to_f16(f16_to_f32(h), Rounding::truncate), i) << std::hex << i;
        ASSERT_EQ(encode(Format::f16, f16_to_f32(h)), want) << std::hex << i;
        if (!is_nan(Format::f16, i)) {
            ASSERT_EQ(encode(Format::f16, decode(Format::f16, i)), i) << std::hex << i;  // through f64
            ASSERT_EQ(static_cast<double>(f16_to_f32(h)), decode(Format::f16, i)) << std::hex << i;
        }
    }
}

TEST(ExhaustiveRoundTrip, Bf16ThroughF32) {
    std::vector<std::uint16_t> all(0x10000), back(0x10000);
    std::vector<float> wide(0x10000);
    for (std::uint32_t i = 0; i < 0x10000; ++i) all[i] = static_cast<std::uint16_t>(i);
    bf16_to_f32(all.data(), wide.data(), all.size());
    f32_to_bf16(wide.data(), back.data(), wide.size());
    for (std::uint32_t i = 0; i < 0x10000; ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        const std::uint32_t want = expected_after_nearest_even(Format::bf16, i);
        ASSERT_EQ(back[i], want) << std::hex << i;
        ASSERT_EQ(f32_to_bf16(bf16_to_f32(h)), want) << std::hex << i;
        ASSERT_EQ(f32_to_bf16(bf16_to_f32(h), Rounding::truncate), i) << std::hex << i;
        ASSERT_EQ(encode(Format::bf16, bf16_to_f32(h)), want) << std::hex << i;
        if (!is_nan(Format::bf16, i)) {
            ASSERT_EQ(encode(Format::bf16, decode(Format::bf16, i)), i) << std::hex << i;
            ASSERT_EQ(static_cast<double>(bf16_to_f32(h)), decode(Format::bf16, i)) << std::hex << i;
        }
    }
}

}  // namespace
}  // namespace kcs::ref
