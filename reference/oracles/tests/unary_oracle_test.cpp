// unary oracle: spot checks against 256-bit MPFR rounded to each format
// (kcs_functions proves correct rounding exhaustively; here the wiring).
#include "kcs/reference/unary_oracle.hpp"

#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "big_float.hpp"

namespace kcs::ref::test {
namespace {

BigFloat mpfr_value(UnaryFunction function, double x) {
    BigFloat r(x);
    mpfr_ptr v = r.get();
    switch (function) {
        case UnaryFunction::exp: mpfr_exp(v, v, MPFR_RNDN); break;
        case UnaryFunction::log: mpfr_log(v, v, MPFR_RNDN); break;
        case UnaryFunction::tanh: mpfr_tanh(v, v, MPFR_RNDN); break;
        case UnaryFunction::erf: mpfr_erf(v, v, MPFR_RNDN); break;
        case UnaryFunction::rsqrt: mpfr_rec_sqrt(v, v, MPFR_RNDN); break;
        case UnaryFunction::sigmoid: {  // 1 / (1 + e^-x)
            mpfr_neg(v, v, MPFR_RNDN);
            mpfr_exp(v, v, MPFR_RNDN);
            mpfr_add_ui(v, v, 1, MPFR_RNDN);
            mpfr_ui_div(v, 1, v, MPFR_RNDN);
            break;
        }
        case UnaryFunction::gelu: {  // x/2 * (1 + erf(x / sqrt(2)))
            BigFloat root2(2.0);
            mpfr_sqrt(root2.get(), root2.get(), MPFR_RNDN);
            mpfr_div(v, v, root2.get(), MPFR_RNDN);
            mpfr_erf(v, v, MPFR_RNDN);
            mpfr_add_ui(v, v, 1, MPFR_RNDN);
            mpfr_mul_d(v, v, x / 2, MPFR_RNDN);
            break;
        }
    }
    return r;
}

TEST(UnaryOracle, CorrectlyRoundedSpotChecks) {
    const std::vector<double> arguments = {0.5, 1.0, 1.75, 2.0, 3.25, 7.5, 0.0078125};
    for (const Format format : {Format::f32, Format::f16, Format::bf16}) {
        for (const UnaryFunction function : kUnaryFunctions) {
            const std::vector<double> y = unary_oracle(function, arguments, format);
            for (std::size_t i = 0; i < arguments.size(); ++i) {
                const double x = arguments[i];
                const double expected = round_exact_to_format(mpfr_value(function, x).get(), format);
                EXPECT_EQ(unary_oracle(function, x, format), expected)
                    << unary_function_name(function) << " " << info(format).name << " x=" << x;
                EXPECT_EQ(y[i], expected);
            }
        }
    }
}

TEST(UnaryOracle, SpecialValuesAndDomain) {
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(std::isnan(unary_oracle(UnaryFunction::log, -1.0, Format::f32)));
    EXPECT_EQ(unary_oracle(UnaryFunction::log, 0.0, Format::f16), -inf);
    EXPECT_EQ(unary_oracle(UnaryFunction::rsqrt, -0.0, Format::bf16), -inf);
    EXPECT_EQ(unary_oracle(UnaryFunction::exp, -inf, Format::f32), 0.0);
    EXPECT_TRUE(std::signbit(unary_oracle(UnaryFunction::gelu, -0.0, Format::f32)));
    EXPECT_THROW(unary_oracle(UnaryFunction::exp, 0.1, Format::f16), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::test
