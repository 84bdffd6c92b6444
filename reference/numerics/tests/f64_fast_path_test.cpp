// encode(format, double) and decode() under round to nearest even take fast
// paths (through f32, by round-to-odd for f16 and bf16); they must give
// the generic integer path's bits for every value, and above all for the
// doubles next to the 16-bit formats' rounding midpoints, where a plain
// double rounding through f32 would go wrong.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::ref {
namespace {

using testing::splitmix64;

// Each f32 midpoint of f16 and bf16 (and the f32 values around it) moved by
// amounts below, at and above half an f32 ulp, and random doubles over
// every binade from below bf16's subnormals to above f32's range.
std::vector<double> sample_f64() {
    std::vector<double> sample{0.0, -0.0, std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(), 65504.0, 65520.0, 65519.999, 65520.001,
                               0x1p-25, 0x1.0000000001p-25, 0x1.fffffffffp-26, 0x1p-134, 0x1.8p-133};
    std::uint64_t state = 20261129;
    for (int e = -160; e <= 140; ++e) {
        for (int i = 0; i < 64; ++i) {
            // a 16-bit-format midpoint at this binade: significand bits up to bit 12 (f16) or 9 (bf16), then a 1
            const std::uint64_t r = splitmix64(state);
            const int kept = (i % 2 == 0) ? 11 : 8;
            const double m = std::ldexp(static_cast<double>((r >> (64 - kept)) | (std::uint64_t{1} << kept)) * 2 + 1,
                                        e - kept - 1);
            const double f32_ulp = std::ldexp(1.0, std::ilogb(m) - 23);
            for (const double delta : {0.0, f32_ulp / 2, f32_ulp / 4, f32_ulp * 0.75, f32_ulp, 0x1p-60 * m}) {
                sample.push_back(m + delta);
                sample.push_back(m - delta);
                sample.push_back(-(m + delta));
            }
            sample.push_back(std::ldexp(static_cast<double>(splitmix64(state) >> 11) * 0x1p-53 + 1.0, e));
        }
    }
    return sample;
}

TEST(F64FastPath, EncodeMatchesTheGenericPath) {
    std::size_t compared = 0;
    for (const Format format : {Format::f32, Format::f16, Format::bf16}) {
        for (const double x : sample_f64()) {
            const std::uint32_t fast = encode(format, x);
            const std::uint32_t generic = detail::encode_generic(format, x, Rounding::nearest_even);
            ASSERT_EQ(fast, generic) << to_string(format) << " of " << std::hexfloat << x;
            ++compared;
        }
    }
    EXPECT_GT(compared, 3 * 100000u);
}

TEST(F64FastPath, DecodeMatchesTheGenericPathBitForBit) {
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        for (const Format format : {Format::f16, Format::bf16}) {
            const double fast = decode(format, bits), generic = detail::decode_generic(format, bits);
            if (std::isnan(generic)) {
                ASSERT_TRUE(std::isnan(fast));
                ASSERT_EQ(std::signbit(fast), std::signbit(generic));
            } else {
                ASSERT_EQ(std::bit_cast<std::uint64_t>(fast), std::bit_cast<std::uint64_t>(generic))
                    << to_string(format) << " bits " << bits;
            }
        }
    }
    std::uint64_t state = 7;
    for (int i = 0; i < 100000; ++i) {
        const auto bits = static_cast<std::uint32_t>(splitmix64(state));
        const double fast = decode(Format::f32, bits), generic = detail::decode_generic(Format::f32, bits);
        if (std::isnan(generic))
            ASSERT_TRUE(std::isnan(fast) && std::signbit(fast) == std::signbit(generic));
        else
            ASSERT_EQ(std::bit_cast<std::uint64_t>(fast), std::bit_cast<std::uint64_t>(generic)) << "f32 bits " << bits;
    }
}

}  // namespace
}  // namespace kcs::ref
