// add, mul, mul_add and maximum oracles against exact MPFR arithmetic
// rounded once to the format, on random encodings of every format and on
// the cases where a double rounding would go wrong.
#include "kcs/reference/elementwise_oracle.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "big_float.hpp"
#include "splitmix64.hpp"

namespace kcs::ref::test {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr Format kFormats[] = {Format::f32, Format::f16, Format::bf16};

// RN_format(f(a, b, c)) with f evaluated exactly: 2048 bits hold any sum
// or product of three values of these formats.
double exact_rounded(Format format, double a, double b, double c,
                     const std::function<void(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_srcptr)>& f) {
    mpfr_t x, y, z, r;
    for (mpfr_ptr v : {x, y, z, r}) mpfr_init2(v, 2048);
    mpfr_set_d(x, a, MPFR_RNDN);
    mpfr_set_d(y, b, MPFR_RNDN);
    mpfr_set_d(z, c, MPFR_RNDN);
    f(r, x, y, z);
    const double rounded = round_exact_to_format(r, format);
    for (mpfr_ptr v : {x, y, z, r}) mpfr_clear(v);
    return rounded;
}

double reference_add(Format f, double a, double b) {
    return exact_rounded(f, a, b, 0, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
        mpfr_add(r, x, y, MPFR_RNDN);
    });
}
double reference_mul(Format f, double a, double b) {
    return exact_rounded(f, a, b, 0, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr) {
        mpfr_mul(r, x, y, MPFR_RNDN);
    });
}
double reference_fused(Format f, double a, double b, double c) {
    return exact_rounded(f, a, b, c, [](mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_srcptr z) {
        mpfr_fma(r, x, y, z, MPFR_RNDN);
    });
}

// Same value, same sign of zero, or both NaN.
::testing::AssertionResult same(double expected, double got) {
    if ((std::isnan(expected) && std::isnan(got)) ||
        std::bit_cast<std::uint64_t>(expected) == std::bit_cast<std::uint64_t>(got)) {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "expected " << expected << " got " << got;
}

// A random value of the format: any encoding (NaN included) half of the
// time, otherwise near `near` so that sums cancel and round at ties.
double random_value(SplitMix64& rng, Format format, double near) {
    const int bits = info(format).storage_bits;
    if (rng.below(2) == 0) {
        return decode(format, static_cast<std::uint32_t>(rng.next() >> (64 - bits)));
    }
    const double scale = std::ldexp(1.0, static_cast<int>(rng.below(16)) - 8);
    return round_to(format, near * (1 + scale * 0x1p-20 * rng.normal()));
}

TEST(ElementwiseOracle, MatchesExactArithmeticOnRandomEncodings) {
    for (const Format format : kFormats) {
        SplitMix64 rng(static_cast<std::uint64_t>(format) + 1);
        std::vector<double> a(20000), b(20000), c(20000);
        for (std::size_t i = 0; i < a.size(); ++i) {
            a[i] = random_value(rng, format, 1.0);
            b[i] = random_value(rng, format, rng.below(2) == 0 ? -a[i] : a[i]);
            c[i] = random_value(rng, format, -a[i] * b[i]);
        }
        const auto add = elementwise_oracle(ElementwiseFunction::add, a, b, {}, format);
        const auto mul = elementwise_oracle(ElementwiseFunction::mul, a, b, {}, format);
        const auto mul_add = elementwise_oracle(ElementwiseFunction::mul_add, a, b, c, format);
        EXPECT_TRUE(add.fused.empty());
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::string where = std::string(info(format).name) + " a=" + std::to_string(a[i]) +
                                      " b=" + std::to_string(b[i]) + " c=" + std::to_string(c[i]);
            EXPECT_TRUE(same(reference_add(format, a[i], b[i]), add.value[i])) << where;
            EXPECT_TRUE(same(reference_mul(format, a[i], b[i]), mul.value[i])) << where;
            EXPECT_TRUE(same(reference_fused(format, a[i], b[i], c[i]), mul_add.fused[i])) << where;
            const double product = reference_mul(format, a[i], b[i]);
            EXPECT_TRUE(same(reference_add(format, product, c[i]), mul_add.value[i])) << where;
        }
    }
}

// a*b + c = 1 + 2^-24 + 2^-70 with f32 operands: an f64 fma gives
// 1 + 2^-24, a tie that RN_f32 sends to 1; the correct fused result is
// 1 + 2^-23. Unfused: RN(a*b) = -2^-24, and 1 + 2^-24 ties to 1.
TEST(ElementwiseOracle, FusedMulAddAvoidsDoubleRounding) {
    const double a = -0x1p-24 * (1 - 0x1p-23), b = 1 + 0x1p-23, c = 1 + 0x1p-23;
    EXPECT_EQ(round_to(Format::f32, std::fma(a, b, c)), 1.0);  // the hazard
    const MulAddResult r = mul_add_oracle(a, b, c, Format::f32);
    EXPECT_EQ(r.fused, 1 + 0x1p-23);
    EXPECT_EQ(r.unfused, 1.0);
    EXPECT_EQ(r.fused, reference_fused(Format::f32, a, b, c));
}

// C-CMP-03's probe: c = -RN(a*b); fused gives the product's rounding
// error, unfused exactly +0.
TEST(ElementwiseOracle, ContractionProbe) {
    for (const Format format : kFormats) {
        const double a = round_to(format, 1 + 3 * info(format).unit_roundoff);
        const double b = round_to(format, 1 - 5 * info(format).unit_roundoff);
        const double c = -round_to(format, a * b);
        const MulAddResult r = mul_add_oracle(a, b, c, format);
        EXPECT_TRUE(same(0.0, r.unfused)) << info(format).name;
        EXPECT_EQ(r.fused, round_to(format, a * b + c)) << info(format).name;  // exact in f64 here
        EXPECT_NE(r.fused, 0.0) << info(format).name;
    }
}

TEST(ElementwiseOracle, IeeeSpecialValues) {
    const Format f = Format::f16;
    EXPECT_TRUE(std::isnan(add_oracle(kInf, -kInf, f)));
    EXPECT_TRUE(std::isnan(mul_oracle(0.0, kInf, f)));
    EXPECT_TRUE(same(0.0, add_oracle(1.0, -1.0, f)));     // exact zero sum: +0
    EXPECT_TRUE(same(-0.0, add_oracle(-0.0, -0.0, f)));   // -0 only from two -0
    EXPECT_TRUE(same(-0.0, mul_oracle(-2.0, 0.0, f)));    // sign: exclusive or
    EXPECT_EQ(add_oracle(65504.0, 16.0, f), kInf);        // rounds past the largest finite
    EXPECT_EQ(add_oracle(65504.0, 8.0, f), 65504.0);      // ties to even, stays finite
    EXPECT_TRUE(same(-0.0, mul_oracle(-0x1p-24, 0x1p-2, f)));  // underflow keeps the sign
    EXPECT_TRUE(std::isnan(mul_add_oracle(0.0, kInf, 1.0, f).fused));
    EXPECT_TRUE(std::isnan(mul_add_oracle(kInf, 1.0, -kInf, f).unfused));
    EXPECT_TRUE(same(-0.0, mul_add_oracle(-0.0, 1.0, -0.0, f).fused));
}

TEST(ElementwiseOracle, MaximumFollowsIeee754_2019) {
    EXPECT_TRUE(std::isnan(maximum_oracle(kNaN, 1.0)));
    EXPECT_TRUE(std::isnan(maximum_oracle(1.0, kNaN)));
    EXPECT_TRUE(std::isnan(maximum_oracle(kNaN, -kInf)));
    EXPECT_TRUE(same(0.0, maximum_oracle(-0.0, 0.0)));
    EXPECT_TRUE(same(0.0, maximum_oracle(0.0, -0.0)));
    EXPECT_TRUE(same(-0.0, maximum_oracle(-0.0, -0.0)));
    EXPECT_EQ(maximum_oracle(-kInf, -3.0), -3.0);
    EXPECT_EQ(maximum_oracle(kInf, 3.0), kInf);
    const std::vector<double> a = {1, kNaN, -0.0}, b = {2, 0, 0.0};
    const auto r = elementwise_oracle(ElementwiseFunction::maximum, a, b, {}, Format::bf16);
    EXPECT_EQ(r.value[0], 2.0);
    EXPECT_TRUE(std::isnan(r.value[1]));
    EXPECT_TRUE(same(0.0, r.value[2]));
}

TEST(ElementwiseOracle, RejectsValuesOutsideTheFormatAndLengthMismatch) {
    EXPECT_THROW(add_oracle(0.1, 1.0, Format::f32), std::invalid_argument);
    EXPECT_THROW(mul_oracle(1.0, 1 + 0x1p-12, Format::f16), std::invalid_argument);
    EXPECT_THROW(mul_add_oracle(1.0, 1.0, 1 + 0x1p-9, Format::bf16), std::invalid_argument);
    const std::vector<double> two(2, 1.0), three(3, 1.0);
    EXPECT_THROW(elementwise_oracle(ElementwiseFunction::add, two, three, {}, Format::f32),
                 std::invalid_argument);
    EXPECT_THROW(elementwise_oracle(ElementwiseFunction::mul_add, two, two, three, Format::f32),
                 std::invalid_argument);
    try {
        elementwise_oracle(ElementwiseFunction::add, two, std::vector<double>{1.0, 0.1}, {},
                           Format::f16);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("b[1] = 0.10000000000000001 is not a value of f16"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace kcs::ref::test
