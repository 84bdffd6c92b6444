// The constants of each format against the SPEC.md section 1 table, and
// against the formulas of FormatInfo's comments.
#include <gtest/gtest.h>

#include <cmath>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

TEST(FormatInfo, F16MatchesTheSpecTable) {
    const FormatInfo& f = info(Format::f16);
    EXPECT_EQ(f.name, "f16");
    EXPECT_EQ(f.storage_bits, 16);
    EXPECT_EQ(f.exponent_bits, 5);
    EXPECT_EQ(f.precision, 11);
    EXPECT_EQ(f.exponent_bias, 15);
    EXPECT_EQ(f.unit_roundoff, 0.00048828125);        // 2^-11
    EXPECT_EQ(f.min_normal, 6.103515625e-05);         // 2^-14
    EXPECT_EQ(f.min_subnormal, 5.9604644775390625e-08);  // 2^-24
    EXPECT_EQ(f.max_finite, 65504.0);                 // (2 - 2^-10) * 2^15 = 65536 - 32
}

TEST(FormatInfo, Bf16MatchesTheSpecTable) {
    const FormatInfo& f = info(Format::bf16);
    EXPECT_EQ(f.name, "bf16");
    EXPECT_EQ(f.storage_bits, 16);
    EXPECT_EQ(f.exponent_bits, 8);
    EXPECT_EQ(f.precision, 8);
    EXPECT_EQ(f.exponent_bias, 127);
    EXPECT_EQ(f.unit_roundoff, 0.00390625);  // 2^-8
    EXPECT_EQ(f.min_normal, std::ldexp(1.0, -126));
    EXPECT_EQ(f.min_subnormal, std::ldexp(1.0, -133));
    EXPECT_EQ(f.max_finite, 3.3895313892515355e38);  // (2 - 2^-7) * 2^127 = 255 * 2^120
}

TEST(FormatInfo, F32MatchesTheSpecTable) {
    const FormatInfo& f = info(Format::f32);
    EXPECT_EQ(f.name, "f32");
    EXPECT_EQ(f.storage_bits, 32);
    EXPECT_EQ(f.precision, 24);
    EXPECT_EQ(f.unit_roundoff, 5.9604644775390625e-08);  // 2^-24
    EXPECT_EQ(f.min_normal, 1.1754943508222875e-38);      // FLT_MIN
    EXPECT_EQ(f.min_subnormal, 1.401298464324817e-45);    // FLT_TRUE_MIN
    EXPECT_EQ(f.max_finite, 3.4028234663852886e38);       // FLT_MAX
}

TEST(FormatInfo, FieldsFollowFromPrecisionAndBias) {
    for (Format format : {Format::f32, Format::f16, Format::bf16}) {
        const FormatInfo& f = info(format);
        SCOPED_TRACE(f.name);
        EXPECT_EQ(f.storage_bits, 1 + f.exponent_bits + f.precision - 1);
        EXPECT_EQ(f.exponent_bias, (1 << (f.exponent_bits - 1)) - 1);
        EXPECT_EQ(f.unit_roundoff, std::ldexp(1.0, -f.precision));
        EXPECT_EQ(f.min_normal, std::ldexp(1.0, 1 - f.exponent_bias));
        EXPECT_EQ(f.min_subnormal, std::ldexp(1.0, 2 - f.exponent_bias - f.precision));
        EXPECT_EQ(f.max_finite, (2 - std::ldexp(1.0, 1 - f.precision)) * std::ldexp(1.0, f.exponent_bias));
    }
}

}  // namespace
}  // namespace kcs::ref
