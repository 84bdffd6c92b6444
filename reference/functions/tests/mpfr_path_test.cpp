// The MPFR fallback on its own. It decides only the rare near-boundary
// arguments in a sweep, so the sweeps alone would exercise it little: here
// it must agree with the full evaluation (itself checked against the tests'
// reference) on a spread of f16, bf16 and f32 arguments, and its rounding
// step is checked at midpoints directly.
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "f32_test_inputs.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "mpfr_rounding.hpp"
#include "reference_check.hpp"
#include "rounding_decision.hpp"
#include "test_names.hpp"

namespace kcs::ref {
namespace {

class MpfrPath : public ::testing::TestWithParam<std::tuple<UnaryFunction, Format>> {};

// Every 7th encoding of f16/bf16 (all exponents, many significands); 2000
// sampled f32 arguments and the f32 hard cases.
std::vector<std::uint32_t> arguments_for(UnaryFunction function, Format format) {
    std::vector<std::uint32_t> out;
    if (format != Format::f32) {
        for (std::uint32_t bits = 0; bits < 65536; bits += 7) out.push_back(bits);
        return out;
    }
    out = testing::f32_hard_inputs(function);
    const auto sampled = testing::f32_sampled_inputs(function);
    for (std::size_t i = 0; i < sampled.size(); i += sampled.size() / 2000) out.push_back(sampled[i]);
    return out;
}

TEST_P(MpfrPath, AgreesWithTheReference) {
    const auto [function, format] = GetParam();
    std::size_t mismatches = 0;
    for (const std::uint32_t x : arguments_for(function, format)) {
        const UnaryResult result = correctly_rounded_by_mpfr(function, format, x);
        if (const auto why = testing::mismatch(function, format, x, result.bits)) {
            if (++mismatches <= 10) ADD_FAILURE() << "MPFR path: " << *why;
        }
    }
    EXPECT_EQ(mismatches, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    AllFunctions, MpfrPath,
    ::testing::Combine(::testing::ValuesIn(kUnaryFunctions),
                       ::testing::Values(Format::f32, Format::f16, Format::bf16)),
    [](const auto& param_info) {
        return testing::case_name(std::get<0>(param_info.param), std::get<1>(param_info.param));
    });

// round_to_format on MPFR numbers a hair away from f32 rounding boundaries,
// where rounding first to double to nearest would go wrong.
class Mpfr300 {
public:
    explicit Mpfr300(double base, long offset_exponent, int offset_sign) {
        mpfr_init2(value_, 300);
        mpfr_set_d(value_, base, MPFR_RNDN);
        if (offset_sign != 0) {
            mpfr_t offset;
            mpfr_init2(offset, 300);
            mpfr_set_si_2exp(offset, offset_sign, offset_exponent, MPFR_RNDN);
            mpfr_add(value_, value_, offset, MPFR_RNDN);
            mpfr_clear(offset);
        }
    }
    ~Mpfr300() { mpfr_clear(value_); }
    Mpfr300(const Mpfr300&) = delete;
    Mpfr300& operator=(const Mpfr300&) = delete;
    mpfr_srcptr get() const { return value_; }

private:
    mpfr_t value_;
};

TEST(MpfrRounding, DecidesMidpointsByTheBitsBeyondDouble) {
    using unary_detail::round_to_format;
    const double midpoint = 1.0 + 0x1p-24;  // between 1 and 1 + 2^-23
    EXPECT_EQ(round_to_format(Mpfr300(midpoint, 0, 0).get(), Format::f32), 0x3F80'0000u);  // tie: even
    EXPECT_EQ(round_to_format(Mpfr300(midpoint, -200, +1).get(), Format::f32), 0x3F80'0001u);
    EXPECT_EQ(round_to_format(Mpfr300(midpoint, -200, -1).get(), Format::f32), 0x3F80'0000u);
    EXPECT_EQ(round_to_format(Mpfr300(-midpoint, -200, -1).get(), Format::f32), 0xBF80'0001u);

    // Half the smallest subnormal: ties to +-0, anything above to 2^-149.
    EXPECT_EQ(round_to_format(Mpfr300(0x1p-150, 0, 0).get(), Format::f32), 0x0000'0000u);
    EXPECT_EQ(round_to_format(Mpfr300(0x1p-150, -400, +1).get(), Format::f32), 0x0000'0001u);
    EXPECT_EQ(round_to_format(Mpfr300(-0x1p-150, -400, +1).get(), Format::f32), 0x8000'0000u);

    // The overflow threshold max + ulp/2: a hair below stays finite.
    EXPECT_EQ(round_to_format(Mpfr300(0x1.ffffffp127, -100, -1).get(), Format::f32), 0x7F7F'FFFFu);
    EXPECT_EQ(round_to_format(Mpfr300(0x1.ffffffp127, 0, 0).get(), Format::f32), 0x7F80'0000u);
    EXPECT_EQ(round_to_format(Mpfr300(65520.0, -200, -1).get(), Format::f16), 0x7BFFu);
    EXPECT_EQ(round_to_format(Mpfr300(65520.0, 0, 0).get(), Format::f16), 0x7C00u);
}

TEST(RoundingDecision, PassesOnIntervalsThatHoldABoundary) {
    using unary_detail::decide_from_double;
    // A midpoint of f32 is undecidable from a double; a value of f32 is decided.
    EXPECT_FALSE(decide_from_double(Format::f32, {1.0 + 0x1p-24, false}).has_value());
    EXPECT_EQ(decide_from_double(Format::f32, {1.0 + 0x1p-23, true}), 0xBF80'0001u);
    // Within the margin of a midpoint: passed on; beyond it: decided.
    EXPECT_FALSE(decide_from_double(Format::f32, {1.0 + 0x1p-24 + 0x1p-45, false}).has_value());
    EXPECT_EQ(decide_from_double(Format::f32, {1.0 + 0x1p-24 + 0x1p-35, false}), 0x3F80'0001u);
    // Underflow keeps the sign; infinity is infinity.
    EXPECT_EQ(decide_from_double(Format::bf16, {0x1p-300, true}), 0x8000u);
    EXPECT_EQ(decide_from_double(Format::f16, {INFINITY, false}), 0x7C00u);
}

}  // namespace
}  // namespace kcs::ref
