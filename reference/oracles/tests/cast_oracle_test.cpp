// cast oracle: narrowing against MPFR's exact rounding on random f32
// encodings and curated boundaries; widening exhaustively exact.
#include "kcs/reference/cast_oracle.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "big_float.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

bool same(double expected, double got) {
    return (std::isnan(expected) && std::isnan(got)) ||
           std::bit_cast<std::uint64_t>(expected) == std::bit_cast<std::uint64_t>(got);
}

double f32_bits(std::uint32_t bits) { return static_cast<double>(std::bit_cast<float>(bits)); }

TEST(CastOracle, NarrowingMatchesMpfrOnRandomF32Encodings) {
    SplitMix64 rng(99);
    std::vector<double> x(200000);
    for (double& v : x) v = f32_bits(static_cast<std::uint32_t>(rng.next() >> 32));
    for (const Format to : {Format::f16, Format::bf16}) {
        const std::vector<double> y = cast_oracle(x, Format::f32, to);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const BigFloat exact(x[i]);
            ASSERT_TRUE(same(round_exact_to_format(exact.get(), to), y[i]))
                << info(to).name << " x = " << x[i];
        }
    }
}

TEST(CastOracle, CuratedBoundaries) {
    // bf16 ties to even: 0x3F818000 is halfway between 0x3F81 and 0x3F82.
    EXPECT_EQ(cast_oracle(f32_bits(0x3F818000), Format::f32, Format::bf16), decode(Format::bf16, 0x3F82));
    EXPECT_EQ(cast_oracle(f32_bits(0x3F828000), Format::f32, Format::bf16), decode(Format::bf16, 0x3F82));
    EXPECT_EQ(cast_oracle(f32_bits(0x3F818001), Format::f32, Format::bf16), decode(Format::bf16, 0x3F82));
    // f16 overflow threshold 65520 = 65504 + half an ulp.
    EXPECT_EQ(cast_oracle(65520.0, Format::f32, Format::f16), HUGE_VAL);
    EXPECT_EQ(cast_oracle(-65520.0, Format::f32, Format::f16), -HUGE_VAL);
    EXPECT_EQ(cast_oracle(std::nextafter(65520.0f, 0.0f), Format::f32, Format::f16), 65504.0);
    // bf16 overflow threshold (2 - 2^-8) * 2^127.
    EXPECT_EQ(cast_oracle(0x1.ffp127, Format::f32, Format::bf16), HUGE_VAL);
    EXPECT_EQ(cast_oracle(0x1.fefffep127, Format::f32, Format::bf16), 0x1.fep127);
    // f16 subnormals: 2^-25 ties to +0 (even), 3 * 2^-26 rounds up to 2^-24.
    EXPECT_TRUE(same(0.0, cast_oracle(0x1p-25, Format::f32, Format::f16)));
    EXPECT_TRUE(same(-0.0, cast_oracle(-0x1p-25, Format::f32, Format::f16)));
    EXPECT_EQ(cast_oracle(0x1.8p-25, Format::f32, Format::f16), 0x1p-24);
    EXPECT_TRUE(same(-0.0, cast_oracle(-0.0, Format::f32, Format::bf16)));
    EXPECT_TRUE(std::isnan(cast_oracle(std::numeric_limits<double>::quiet_NaN(), Format::f32, Format::f16)));
    EXPECT_EQ(cast_oracle(-HUGE_VAL, Format::f32, Format::bf16), -HUGE_VAL);
}

TEST(CastOracle, WideningIsExactForEveryHalfEncoding) {
    for (const Format from : {Format::f16, Format::bf16}) {
        for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
            const double x = decode(from, bits);
            ASSERT_TRUE(same(x, cast_oracle(x, from, Format::f32))) << std::hex << bits;
        }
    }
}

TEST(CastOracle, RejectsValuesOutsideTheSourceFormat) {
    EXPECT_THROW(cast_oracle(0.1, Format::f32, Format::f16), std::invalid_argument);
    EXPECT_THROW(cast_oracle(1 + 0x1p-20, Format::f16, Format::f32), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::test
