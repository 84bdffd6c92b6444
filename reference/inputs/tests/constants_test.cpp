// Every constant of the fast ln and cos paths, recomputed with MPFR, and
// the properties their error analyses rely on (bit counts, residuals).
#include "constants.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>

namespace kcs::ref::inputs_detail {
namespace {

// An MPFR number at 300 bits, freed on scope exit.
class Big {
public:
    Big() { mpfr_init2(v_, 300); }
    ~Big() { mpfr_clear(v_); }
    Big(const Big&) = delete;
    Big& operator=(const Big&) = delete;
    mpfr_ptr get() { return v_; }

private:
    mpfr_t v_;
};

// (RN(v), RN(v - RN(v))).
DoubleWord split(mpfr_ptr v) {
    Big rest;
    const double hi = mpfr_get_d(v, MPFR_RNDN);
    mpfr_sub_d(rest.get(), v, hi, MPFR_RNDN);
    return {hi, mpfr_get_d(rest.get(), MPFR_RNDN)};
}

// Significant bits of a finite nonzero f64.
int significant_bits(double x) {
    const std::uint64_t significand = (std::bit_cast<std::uint64_t>(x) & ((std::uint64_t{1} << 52) - 1)) |
                                      (std::uint64_t{1} << 52);
    return 53 - std::countr_zero(significand);
}

// log2 |v - (a + b + c)|.
double residual_log2(mpfr_ptr v, double a, double b, double c) {
    Big r;
    mpfr_sub_d(r.get(), v, a, MPFR_RNDN);
    mpfr_sub_d(r.get(), r.get(), b, MPFR_RNDN);
    mpfr_sub_d(r.get(), r.get(), c, MPFR_RNDN);
    mpfr_abs(r.get(), r.get(), MPFR_RNDN);
    mpfr_log2(r.get(), r.get(), MPFR_RNDN);
    return mpfr_get_d(r.get(), MPFR_RNDN);
}

void expect_reciprocal(const DoubleWord& constant, unsigned long n) {
    Big v;
    mpfr_set_ui(v.get(), 1, MPFR_RNDN);
    mpfr_div_ui(v.get(), v.get(), n, MPFR_RNDN);
    const DoubleWord expected = split(v.get());
    EXPECT_EQ(constant.hi, expected.hi) << "1/" << n;
    EXPECT_EQ(constant.lo, expected.lo) << "1/" << n;
}

TEST(Constants, ReciprocalsAreRoundedDoubleWords) {
    expect_reciprocal(kInv3, 3);
    expect_reciprocal(kInv6, 6);
    expect_reciprocal(kInv24, 24);
    expect_reciprocal(kInv120, 120);
    expect_reciprocal(kInv720, 720);
    expect_reciprocal(kInv5040, 5040);
    expect_reciprocal(kInv40320, 40320);
}

TEST(Constants, Ln2SplitHasA47BitHeadAndAResidualBelow2ToMinus101) {
    Big ln2;
    mpfr_const_log2(ln2.get(), MPFR_RNDN);
    EXPECT_LE(significant_bits(kLn2Hi), 47);
    EXPECT_LT(residual_log2(ln2.get(), kLn2Hi, kLn2Lo, 0.0), -101.0);
    // e·kLn2Hi is exact for every exponent e of the fast path, -53 .. -1.
    for (int e = -53; e <= -1; ++e) EXPECT_EQ(std::fma(e, kLn2Hi, -(e * kLn2Hi)), 0.0) << "e = " << e;
}

TEST(Constants, HalfPiSplitMakesTheReductionExact) {
    Big half_pi;
    mpfr_const_pi(half_pi.get(), MPFR_RNDN);
    mpfr_div_2ui(half_pi.get(), half_pi.get(), 1, MPFR_RNDN);
    EXPECT_LE(significant_bits(kPiOver2Part1), 50);
    EXPECT_LE(significant_bits(kPiOver2Part2), 50);
    EXPECT_LT(residual_log2(half_pi.get(), kPiOver2Part1, kPiOver2Part2, kPiOver2Part3), -159.0);
    // k·P1 and k·P2 are exact for k <= 5, and k·P1 is a multiple of 2^-49
    // (so θ - k·P1 is exact for θ >= 0.5 whenever it is below 1).
    for (int k = 1; k <= 5; ++k) {
        EXPECT_EQ(std::fma(k, kPiOver2Part1, -(k * kPiOver2Part1)), 0.0) << "k = " << k;
        EXPECT_EQ(std::fma(k, kPiOver2Part2, -(k * kPiOver2Part2)), 0.0) << "k = " << k;
    }
    EXPECT_EQ(std::ldexp(kPiOver2Part1, 49), std::floor(std::ldexp(kPiOver2Part1, 49)));
}

TEST(Constants, LogTableHoldsMinusLnOfRoundedInverses) {
    for (int j = kLogTableFirst; j <= kLogTableLast; ++j) {
        const DoubleWord entry = kLogOfInverse[j - kLogTableFirst];
        if (j == 64) {
            EXPECT_EQ(entry.hi, 0.0);
            EXPECT_EQ(entry.lo, 0.0);
            continue;
        }
        Big v;
        mpfr_set_d(v.get(), 64.0 / j, MPFR_RNDN);  // c_j = RN(64/j), as the fast path computes it
        mpfr_log(v.get(), v.get(), MPFR_RNDN);
        mpfr_neg(v.get(), v.get(), MPFR_RNDN);
        const DoubleWord expected = split(v.get());
        EXPECT_EQ(entry.hi, expected.hi) << "j = " << j;
        EXPECT_EQ(entry.lo, expected.lo) << "j = " << j;
    }
}

}  // namespace
}  // namespace kcs::ref::inputs_detail
