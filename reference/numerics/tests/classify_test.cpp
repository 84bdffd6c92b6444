// Classification of every kind of special encoding, and the exact census
// of all 2^16 encodings of the 16-bit formats.
#include <gtest/gtest.h>

#include <array>
#include <map>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

struct Case {
    std::uint32_t bits;
    FloatClass expected;
};

void expect_classes(Format format, std::initializer_list<Case> cases) {
    for (const Case& c : cases) {
        EXPECT_EQ(classify(format, c.bits), c.expected) << info(format).name << " 0x" << std::hex << c.bits;
        const bool nan = c.expected == FloatClass::quiet_nan || c.expected == FloatClass::signalling_nan;
        EXPECT_EQ(is_nan(format, c.bits), nan) << std::hex << c.bits;
    }
}

TEST(Classify, F16SpecialEncodings) {
    expect_classes(Format::f16, {
        {0x0000, FloatClass::zero},           {0x8000, FloatClass::zero},
        {0x0001, FloatClass::subnormal},      {0x03FF, FloatClass::subnormal},  // min and max subnormal
        {0x8001, FloatClass::subnormal},      {0x83FF, FloatClass::subnormal},
        {0x0400, FloatClass::normal},         {0x7BFF, FloatClass::normal},     // min normal, 65504
        {0x3C00, FloatClass::normal},         {0xFBFF, FloatClass::normal},
        {0x7C00, FloatClass::infinite},       {0xFC00, FloatClass::infinite},
        {0x7E00, FloatClass::quiet_nan},      {0xFE00, FloatClass::quiet_nan},  // quiet bit 0x0200
        {0x7FFF, FloatClass::quiet_nan},      {0xFFFF, FloatClass::quiet_nan},
        {0x7C01, FloatClass::signalling_nan}, {0x7DFF, FloatClass::signalling_nan},
        {0xFC01, FloatClass::signalling_nan},
    });
}

TEST(Classify, Bf16SpecialEncodings) {
    expect_classes(Format::bf16, {
        {0x0000, FloatClass::zero},           {0x8000, FloatClass::zero},
        {0x0001, FloatClass::subnormal},      {0x007F, FloatClass::subnormal},
        {0x8001, FloatClass::subnormal},
        {0x0080, FloatClass::normal},         {0x7F7F, FloatClass::normal},     // min normal, max finite
        {0x3F80, FloatClass::normal},         {0xFF7F, FloatClass::normal},
        {0x7F80, FloatClass::infinite},       {0xFF80, FloatClass::infinite},
        {0x7FC0, FloatClass::quiet_nan},      {0xFFC0, FloatClass::quiet_nan},  // quiet bit 0x0040
        {0x7FFF, FloatClass::quiet_nan},
        {0x7F81, FloatClass::signalling_nan}, {0x7FBF, FloatClass::signalling_nan},
        {0xFF81, FloatClass::signalling_nan},
    });
}

TEST(Classify, F32SpecialEncodings) {
    expect_classes(Format::f32, {
        {0x00000000, FloatClass::zero},           {0x80000000, FloatClass::zero},
        {0x00000001, FloatClass::subnormal},      {0x007FFFFF, FloatClass::subnormal},
        {0x80000001, FloatClass::subnormal},
        {0x00800000, FloatClass::normal},         {0x7F7FFFFF, FloatClass::normal},
        {0xFF7FFFFF, FloatClass::normal},
        {0x7F800000, FloatClass::infinite},       {0xFF800000, FloatClass::infinite},
        {0x7FC00000, FloatClass::quiet_nan},      {0xFFFFFFFF, FloatClass::quiet_nan},
        {0x7F800001, FloatClass::signalling_nan}, {0x7FBFFFFF, FloatClass::signalling_nan},
        {0xFF800001, FloatClass::signalling_nan},
    });
}

TEST(Classify, BitsAboveTheStorageAreIgnored) {
    EXPECT_EQ(classify(Format::f16, 0xABCD7C00u), FloatClass::infinite);
    EXPECT_EQ(classify(Format::bf16, 0xFFFF0000u), FloatClass::zero);
    EXPECT_TRUE(sign_bit(Format::f16, 0x8000));
    EXPECT_FALSE(sign_bit(Format::f16, 0x18000u & 0x7FFF));
    EXPECT_TRUE(sign_bit(Format::f32, 0x80000000u));
    EXPECT_FALSE(sign_bit(Format::bf16, 0x7F80));
}

// Counts per class over all 2^16 encodings, worked out from the layouts:
//  f16 (5 exponent bits, 10 trailing): zeros 2; subnormals 2*(2^10-1) = 2046;
//   normals 2*30*2^10 = 61440; infinities 2; quiet NaNs 2*2^9 = 1024;
//   signalling NaNs 2*(2^9-1) = 1022. Total 65536.
//  bf16 (8 exponent bits, 7 trailing): zeros 2; subnormals 2*127 = 254;
//   normals 2*254*2^7 = 65024; infinities 2; quiet 2*2^6 = 128;
//   signalling 2*(2^6-1) = 126. Total 65536.
TEST(Classify, CensusOfAllSixteenBitEncodings) {
    const std::map<FloatClass, int> f16_expected{
        {FloatClass::zero, 2},         {FloatClass::subnormal, 2046}, {FloatClass::normal, 61440},
        {FloatClass::infinite, 2},     {FloatClass::quiet_nan, 1024}, {FloatClass::signalling_nan, 1022}};
    const std::map<FloatClass, int> bf16_expected{
        {FloatClass::zero, 2},         {FloatClass::subnormal, 254}, {FloatClass::normal, 65024},
        {FloatClass::infinite, 2},     {FloatClass::quiet_nan, 128}, {FloatClass::signalling_nan, 126}};
    std::map<FloatClass, int> f16_count, bf16_count;
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        ++f16_count[classify(Format::f16, bits)];
        ++bf16_count[classify(Format::bf16, bits)];
    }
    EXPECT_EQ(f16_count, f16_expected);
    EXPECT_EQ(bf16_count, bf16_expected);
}

TEST(Classify, NamesOfClasses) {
    EXPECT_EQ(to_string(FloatClass::signalling_nan), "signalling_nan");
    EXPECT_EQ(to_string(FloatClass::subnormal), "subnormal");
}

}  // namespace
}  // namespace kcs::ref
