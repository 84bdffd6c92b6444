// The library's interface: names, argument checks, and the agreement of the
// single, value and batch forms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref {
namespace {

TEST(UnaryFunctionNames, AreTheCatalogNamesAndParseBack) {
    const char* expected[] = {"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"};
    for (std::size_t i = 0; i < kUnaryFunctions.size(); ++i) {
        EXPECT_EQ(unary_function_name(kUnaryFunctions[i]), expected[i]);
        EXPECT_EQ(parse_unary_function(expected[i]), kUnaryFunctions[i]);
    }
    EXPECT_FALSE(parse_unary_function("softplus").has_value());
    EXPECT_FALSE(parse_unary_function("EXP").has_value());
}

TEST(UnaryArguments, BitsBeyondTheFormatAreRejected) {
    EXPECT_THROW(correctly_rounded(UnaryFunction::exp, Format::f16, 0x1'0000u), std::invalid_argument);
    EXPECT_THROW(correctly_rounded(UnaryFunction::exp, Format::bf16, 0x8000'3F80u), std::invalid_argument);
    EXPECT_NO_THROW(correctly_rounded(UnaryFunction::exp, Format::f32, 0xFFFF'FFFFu));
}

TEST(UnaryArguments, ValuesMustBelongToTheFormat) {
    EXPECT_THROW(correctly_rounded_value(UnaryFunction::exp, Format::f16, 0.1), std::invalid_argument);
    EXPECT_THROW(correctly_rounded_value(UnaryFunction::exp, Format::f32, 1.0 + 0x1p-30),
                 std::invalid_argument);
    EXPECT_TRUE(std::isnan(correctly_rounded_value(UnaryFunction::exp, Format::bf16, NAN)));
    EXPECT_EQ(correctly_rounded_value(UnaryFunction::rsqrt, Format::f16, 4.0), 0.5);
    EXPECT_EQ(correctly_rounded_value(UnaryFunction::exp, Format::f32, 1.0),
              static_cast<double>(2.71828182845904523536f));
}

TEST(UnaryBatch, RejectsMismatchedSpansAndF32InSixteenBitWords) {
    std::vector<std::uint32_t> x32(4), y32(3);
    EXPECT_THROW(correctly_rounded_batch(UnaryFunction::log, Format::f32, x32, y32), std::invalid_argument);
    std::vector<std::uint16_t> x16(4), y16(4);
    EXPECT_THROW(correctly_rounded_batch(UnaryFunction::log, Format::f32, x16, y16), std::invalid_argument);
    std::vector<double> xd(2), yd(1);
    EXPECT_THROW(correctly_rounded_batch(UnaryFunction::log, Format::f16, xd, yd), std::invalid_argument);
}

TEST(UnaryBatch, EveryFormAgreesWithTheSingleEvaluation) {
    std::vector<std::uint32_t> x32;
    std::vector<std::uint16_t> x16;
    std::vector<double> xd;
    for (std::uint32_t bits = 0; bits < 65536; bits += 97) {
        x32.push_back(bits);
        x16.push_back(static_cast<std::uint16_t>(bits));
        xd.push_back(decode(Format::bf16, bits));
    }
    for (const UnaryFunction function : kUnaryFunctions) {
        std::vector<std::uint32_t> y32(x32.size());
        std::vector<std::uint16_t> y16(x16.size());
        std::vector<double> yd(xd.size());
        const UnaryBatchStats s32 = correctly_rounded_batch(function, Format::bf16, x32, y32);
        const UnaryBatchStats s16 = correctly_rounded_batch(function, Format::bf16, x16, y16);
        const UnaryBatchStats sd = correctly_rounded_batch(function, Format::bf16, xd, yd);
        EXPECT_EQ(s32.total(), x32.size());
        EXPECT_EQ(s16.mpfr, s32.mpfr);
        EXPECT_EQ(sd.double_bound, s32.double_bound);
        for (std::size_t i = 0; i < x32.size(); ++i) {
            const std::uint32_t single = correctly_rounded_bits(function, Format::bf16, x32[i]);
            EXPECT_EQ(y32[i], single);
            EXPECT_EQ(y16[i], single);
            EXPECT_EQ(encode(Format::bf16, yd[i]), single) << unary_function_name(function) << " " << xd[i];
        }
    }
}

TEST(UnaryBatch, MayWorkInPlace) {
    std::vector<std::uint16_t> xy = {0x3C00u, 0x0000u, 0x8000u, 0x7C00u};  // f16 1, +0, -0, +inf
    correctly_rounded_batch(UnaryFunction::rsqrt, Format::f16, xy, xy);
    EXPECT_EQ(xy, (std::vector<std::uint16_t>{0x3C00u, 0x7C00u, 0xFC00u, 0x0000u}));
}

TEST(UnaryBatchStats, CountsEachPath) {
    UnaryBatchStats a;
    a.add(UnaryPath::special);
    a.add(UnaryPath::mpfr);
    a.add(UnaryPath::double_bound);
    a.add(UnaryPath::double_bound);
    UnaryBatchStats b = a;
    b += a;
    EXPECT_EQ(b.special, 2u);
    EXPECT_EQ(b.double_bound, 4u);
    EXPECT_EQ(b.mpfr, 2u);
    EXPECT_EQ(b.total(), 8u);
}

}  // namespace
}  // namespace kcs::ref
