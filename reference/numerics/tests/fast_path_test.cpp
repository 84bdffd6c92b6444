// The fast f32 paths (scalar and batch) against the generic encode/decode,
// in every rounding mode, over a spread sample of f32 encodings: every
// exponent with edge and pseudo-random significands, both signs. (The
// exhaustive test covers all 2^32 inputs for round-to-nearest-even.)
#include <gtest/gtest.h>

#include <bit>
#include <ostream>
#include <string>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::ref {

// gtest prints parameters with PrintTo, found by argument-dependent lookup.
[[maybe_unused]] static void PrintTo(Rounding rounding, std::ostream* os) { *os << to_string(rounding); }

namespace {

using kcs::ref::testing::splitmix64;

// For each sign and each of the 256 exponents: significands at the edges,
// at and around every rounding boundary of the 16-bit formats, and random.
std::vector<float> sample_f32() {
    std::vector<std::uint32_t> trailing{0, 1, 2, 0x7FFFFF, 0x7FFFFE, 0x400000, 0x400001, 0x3FFFFF,
                                        0x1000, 0x0FFF, 0x1001, 0x3000, 0x2000, 0x8000, 0x7FFF, 0x8001,
                                        0x18000, 0x10000, 0x7F8000, 0x7FF000};
    std::uint64_t state = 20240601;
    for (int i = 0; i < 200; ++i) trailing.push_back(static_cast<std::uint32_t>(splitmix64(state)) & 0x7FFFFF);
    std::vector<float> sample;
    for (std::uint32_t sign : {0u, 0x80000000u}) {
        for (std::uint32_t exponent = 0; exponent < 256; ++exponent) {
            for (std::uint32_t t : trailing) sample.push_back(std::bit_cast<float>(sign | (exponent << 23) | t));
        }
    }
    return sample;
}

class FastPathMatchesGeneric : public ::testing::TestWithParam<Rounding> {};

TEST_P(FastPathMatchesGeneric, ScalarAndBatch) {
    const Rounding rounding = GetParam();
    const std::vector<float> in = sample_f32();
    std::vector<std::uint16_t> f16(in.size()), bf16(in.size());
    f32_to_f16(in.data(), f16.data(), in.size(), rounding);
    f32_to_bf16(in.data(), bf16.data(), in.size(), rounding);
    for (std::size_t i = 0; i < in.size(); ++i) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(in[i]);
        const std::uint32_t want_f16 = encode(Format::f16, in[i], rounding);
        const std::uint32_t want_bf16 = encode(Format::bf16, in[i], rounding);
        ASSERT_EQ(f32_to_f16(in[i], rounding), want_f16) << std::hex << bits;
        ASSERT_EQ(f16[i], want_f16) << std::hex << bits;
        ASSERT_EQ(f32_to_bf16(in[i], rounding), want_bf16) << std::hex << bits;
        ASSERT_EQ(bf16[i], want_bf16) << std::hex << bits;
    }
}

std::string rounding_name(const ::testing::TestParamInfo<Rounding>& p) { return std::string(to_string(p.param)); }

INSTANTIATE_TEST_SUITE_P(AllModes, FastPathMatchesGeneric,
                         ::testing::Values(Rounding::nearest_even, Rounding::toward_zero, Rounding::nearest_away,
                                           Rounding::truncate),
                         rounding_name);

TEST(FastDecode, BatchMatchesScalarAndGeneric) {
    std::vector<std::uint16_t> in(0x10000);
    for (std::uint32_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint16_t>(i);
    std::vector<float> f16(in.size()), bf16(in.size());
    f16_to_f32(in.data(), f16.data(), in.size());
    bf16_to_f32(in.data(), bf16.data(), in.size());
    for (std::uint32_t i = 0; i < in.size(); ++i) {
        const auto h = static_cast<std::uint16_t>(i);
        ASSERT_EQ(std::bit_cast<std::uint32_t>(f16[i]), std::bit_cast<std::uint32_t>(f16_to_f32(h))) << i;
        ASSERT_EQ(std::bit_cast<std::uint32_t>(bf16[i]), std::bit_cast<std::uint32_t>(bf16_to_f32(h))) << i;
        if (is_nan(Format::f16, i)) continue;  // decode cannot carry a payload; the round trip tests do
        ASSERT_EQ(static_cast<double>(f16[i]), decode(Format::f16, i)) << i;
        if (is_nan(Format::bf16, i)) continue;
        ASSERT_EQ(static_cast<double>(bf16[i]), decode(Format::bf16, i)) << i;
    }
}

}  // namespace
}  // namespace kcs::ref
