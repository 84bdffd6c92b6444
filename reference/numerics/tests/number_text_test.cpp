// number_text: the one text of a number shown to a person.
#include "kcs/reference/number_text.hpp"

#include <cstdlib>
#include <limits>

#include <gtest/gtest.h>

namespace {

using kcs::ref::number_text;
using kcs::ref::number_text_apart;
using kcs::ref::round_trip_text;

TEST(NumberText, IntegersInFullWithoutDecimals) {
    EXPECT_EQ(number_text(7123644.0), "7123644");
    EXPECT_EQ(number_text(0.0), "0");
    EXPECT_EQ(number_text(-3.0), "-3");
    EXPECT_EQ(number_text(999999999999999.0), "999999999999999");
}

TEST(NumberText, HugeValuesInShortExponentForm) {
    // The worst ulp error of a flushed tanh(subnormal): 2^124, once printed
    // with 38 digits and ".000000".
    EXPECT_EQ(number_text(21267647932558653966460912964485513216.0), "2.127e37");
    EXPECT_EQ(number_text(1e15), "1e15");
}

TEST(NumberText, SmallValuesNeverReadAsZero) {
    EXPECT_EQ(number_text(1.5e-10), "1.5e-10");
    EXPECT_EQ(number_text(-2.5e-7), "-2.5e-7");
    EXPECT_EQ(number_text(0.000123456), "0.0001235");
    EXPECT_EQ(number_text(2.5), "2.5");
}

TEST(NumberText, SignificantDigitsAndSpecials) {
    EXPECT_EQ(number_text(3.14159265, 3), "3.14");
    EXPECT_EQ(number_text(3.14159265, 0), "3");
    EXPECT_EQ(number_text(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(number_text(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(NumberText, ApartTakesTheDigitsThatTellTwoValuesApart) {
    EXPECT_EQ(number_text_apart(1.00001, 1.00002), "1.00001");
    EXPECT_EQ(number_text_apart(1.00001, 1.00001), "1");
    EXPECT_EQ(number_text_apart(0.5, 0.25), "0.5");
    EXPECT_NE(number_text_apart(1e-10, 1.0000001e-10), number_text_apart(1.0000001e-10, 1e-10));
}

TEST(NumberText, RoundTripReadsBackExactly) {
    for (const double x : {0.1, 1e-10, 2.0 / 3.0, 5e-324, 1.7976931348623157e308}) {
        const std::string text = round_trip_text(x);
        EXPECT_EQ(std::strtod(text.c_str(), nullptr), x) << text;  // stod refuses subnormals
    }
    EXPECT_EQ(round_trip_text(0.1), "0.1");
}

}  // namespace
