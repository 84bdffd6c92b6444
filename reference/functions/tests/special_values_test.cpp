// unary.yaml's special values, encoding by encoding in every format: the
// signs of zeros and infinities exactly, and for NaN results the library's
// documented choice, the positive quiet NaN with an empty payload.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "kcs/reference/unary_functions.hpp"
#include "test_names.hpp"

namespace kcs::ref {
namespace {

struct SpecialCase {
    UnaryFunction function;
    double x;
    double expected;  // NaN: a NaN result
};

// Transcribed from unary.yaml (definition) clause by clause.
constexpr SpecialCase kSpecialCases[] = {
    // NaN gives NaN (every function)
    {UnaryFunction::exp, NAN, NAN}, {UnaryFunction::log, NAN, NAN},
    {UnaryFunction::tanh, NAN, NAN}, {UnaryFunction::erf, NAN, NAN},
    {UnaryFunction::gelu, NAN, NAN}, {UnaryFunction::sigmoid, NAN, NAN},
    {UnaryFunction::rsqrt, NAN, NAN},
    // exp(-inf) = +0, exp(+inf) = +inf; exp(+-0) = 1
    {UnaryFunction::exp, -INFINITY, 0.0}, {UnaryFunction::exp, INFINITY, INFINITY},
    {UnaryFunction::exp, 0.0, 1.0}, {UnaryFunction::exp, -0.0, 1.0},
    // log(+-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf; log(1) = +0
    {UnaryFunction::log, 0.0, -INFINITY}, {UnaryFunction::log, -0.0, -INFINITY},
    {UnaryFunction::log, -1.0, NAN}, {UnaryFunction::log, -INFINITY, NAN},
    {UnaryFunction::log, INFINITY, INFINITY}, {UnaryFunction::log, 1.0, 0.0},
    // tanh(+-inf) = erf(+-inf) = +-1; odd functions keep the sign of zero
    {UnaryFunction::tanh, INFINITY, 1.0}, {UnaryFunction::tanh, -INFINITY, -1.0},
    {UnaryFunction::tanh, 0.0, 0.0}, {UnaryFunction::tanh, -0.0, -0.0},
    {UnaryFunction::erf, INFINITY, 1.0}, {UnaryFunction::erf, -INFINITY, -1.0},
    {UnaryFunction::erf, 0.0, 0.0}, {UnaryFunction::erf, -0.0, -0.0},
    // sigmoid(-inf) = +0, sigmoid(+inf) = 1; sigmoid(+-0) = 1/2
    {UnaryFunction::sigmoid, -INFINITY, 0.0}, {UnaryFunction::sigmoid, INFINITY, 1.0},
    {UnaryFunction::sigmoid, 0.0, 0.5}, {UnaryFunction::sigmoid, -0.0, 0.5},
    // gelu(-inf) = -0, gelu(+inf) = +inf; gelu(+-0) = +-0
    {UnaryFunction::gelu, -INFINITY, -0.0}, {UnaryFunction::gelu, INFINITY, INFINITY},
    {UnaryFunction::gelu, 0.0, 0.0}, {UnaryFunction::gelu, -0.0, -0.0},
    // rsqrt(+-0) = +-inf, rsqrt(x < 0) = NaN, rsqrt(+inf) = +0
    {UnaryFunction::rsqrt, 0.0, INFINITY}, {UnaryFunction::rsqrt, -0.0, -INFINITY},
    {UnaryFunction::rsqrt, -1.0, NAN}, {UnaryFunction::rsqrt, -INFINITY, NAN},
    {UnaryFunction::rsqrt, INFINITY, 0.0},
    // Finite limits reached in every format: exp underflows to +0, gelu far
    // below its underflow is -0, sigmoid saturates to 1 and to +0.
    {UnaryFunction::exp, -200.0, 0.0}, {UnaryFunction::gelu, -100.0, -0.0},
    {UnaryFunction::sigmoid, 200.0, 1.0}, {UnaryFunction::sigmoid, -200.0, 0.0},
    {UnaryFunction::tanh, -50.0, -1.0}, {UnaryFunction::erf, 50.0, 1.0},
};

constexpr std::uint32_t positive_quiet_nan(Format format) {
    return format == Format::f32 ? 0x7FC0'0000u : format == Format::f16 ? 0x7E00u : 0x7FC0u;
}

class SpecialValues : public ::testing::TestWithParam<Format> {};

TEST_P(SpecialValues, FollowTheLimitsOfEachFunction) {
    const Format format = GetParam();
    for (const SpecialCase& c : kSpecialCases) {
        const std::uint32_t x_bits = encode(format, c.x);
        const UnaryResult result = correctly_rounded(c.function, format, x_bits);
        const std::uint32_t expected =
            std::isnan(c.expected) ? positive_quiet_nan(format) : encode(format, c.expected);
        EXPECT_EQ(result.bits, expected)
            << unary_function_name(c.function) << "(" << c.x << ") in " << info(format).name;
    }
}

TEST_P(SpecialValues, AnyNaNArgumentGivesTheQuietNaN) {
    const Format format = GetParam();
    const bool wide = format == Format::f32;
    const std::uint32_t nans[] = {
        wide ? 0x7F80'0001u : (format == Format::f16 ? 0x7C01u : 0x7F81u),  // signalling
        wide ? 0xFFFF'FFFFu : 0xFFFFu,                                      // negative, full payload
    };
    for (const UnaryFunction function : kUnaryFunctions) {
        for (const std::uint32_t nan : nans) {
            EXPECT_EQ(correctly_rounded_bits(function, format, nan), positive_quiet_nan(format))
                << unary_function_name(function);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllFormats, SpecialValues,
                         ::testing::Values(Format::f32, Format::f16, Format::bf16),
                         [](const auto& param_info) { return std::string(kcs::ref::info(param_info.param).name); });

}  // namespace
}  // namespace kcs::ref
