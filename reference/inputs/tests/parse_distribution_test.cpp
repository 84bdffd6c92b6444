// Reading distribution strings: the catalog's forms, and clear errors.
#include "kcs/reference/parse_distribution.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kcs::ref {
namespace {

template <typename T>
T parse_as(std::string_view text) {
    const Distribution d = parse_distribution(text);
    EXPECT_TRUE(std::holds_alternative<T>(d)) << text;
    return std::get<T>(d);
}

TEST(ParseDistribution, CatalogForms) {
    const Normal n = parse_as<Normal>("normal(0,1)");
    EXPECT_EQ(n.mean, 0.0);
    EXPECT_EQ(n.std, 1.0);
    const Uniform u = parse_as<Uniform>("uniform(-1,1)");
    EXPECT_EQ(u.lo, -1.0);
    EXPECT_EQ(u.hi, 1.0);
}

TEST(ParseDistribution, BlanksAroundTokens) {
    const Normal n = parse_as<Normal>("  normal ( 1e4 ,\t1e-2 ) ");
    EXPECT_EQ(n.mean, 1e4);
    EXPECT_EQ(n.std, 1e-2);
    const Uniform u = parse_as<Uniform>("uniform(-110, 110)");
    EXPECT_EQ(u.lo, -110.0);
    EXPECT_EQ(u.hi, 110.0);
}

TEST(ParseDistribution, NumbersRoundToTheNearestF64) {
    EXPECT_EQ(parse_as<Constant>("constant(0.1)").value, 0.1);
    EXPECT_EQ(parse_as<Constant>("constant(+.5)").value, 0.5);
    EXPECT_EQ(parse_as<Constant>("constant(-0x1.8p+1)").value, -3.0);
    EXPECT_EQ(parse_as<Constant>("constant(0x1p-4)").value, 0.0625);
    EXPECT_EQ(parse_as<Constant>("constant(6.103515625e-05)").value, 0x1p-14);
    // 2^-1074 written with more digits than it needs.
    EXPECT_EQ(parse_as<Constant>("constant(4.9406564584124654e-324)").value, 0x1p-1074);
    EXPECT_EQ(parse_as<Normal>("normal(1e3, 16)").std, 16.0);
}

TEST(ParseDistribution, IntegersAndOnes) {
    const Integers i = parse_as<Integers>("integers(0, 4294967295)");
    EXPECT_EQ(i.lo, 0);
    EXPECT_EQ(i.hi, 4294967295);
    const Integers extreme = parse_as<Integers>("integers(-9223372036854775808,-1)");
    EXPECT_EQ(extreme.lo, std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(parse_as<Constant>("ones").value, 1.0);
    EXPECT_EQ(parse_as<Constant>("ones()").value, 1.0);
}

void expect_error(std::string_view text, const std::string& message) {
    try {
        parse_distribution(text);
        ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(e.what(), message);
    }
}

TEST(ParseDistribution, ErrorsQuoteTheTextAndSayWhatIsWrong) {
    expect_error("gauss(0,1)",
                 "distribution 'gauss(0,1)': unknown distribution 'gauss': expected normal(MEAN,STD), "
                 "uniform(LO,HI), integers(LO,HI), constant(V) or ones");
    expect_error("",
                 "distribution '': expected normal(MEAN,STD), uniform(LO,HI), integers(LO,HI), constant(V) or ones");
    expect_error("normal(0)", "distribution 'normal(0)': normal(MEAN,STD) takes 2 parameters, got 1");
    expect_error("normal", "distribution 'normal': normal(MEAN,STD) takes 2 parameters, got 0");
    expect_error("uniform(1,2,3)", "distribution 'uniform(1,2,3)': uniform(LO,HI) takes 2 parameters, got 3");
    expect_error("constant()", "distribution 'constant()': constant(V) takes 1 parameter, got 0");
    expect_error("ones(1)", "distribution 'ones(1)': ones takes 0 parameters, got 1");
    expect_error("normal(0,1", "distribution 'normal(0,1': missing ')' at the end");
    expect_error("normal(0,(1))", "distribution 'normal(0,(1))': unbalanced parentheses");
    expect_error("normal(0,abc)", "distribution 'normal(0,abc)': parameter 2 'abc' is not a number");
    expect_error("normal(0,)", "distribution 'normal(0,)': parameter 2 '' is not a number");
    expect_error("normal(--1,1)", "distribution 'normal(--1,1)': parameter 1 '--1' is not a number");
    expect_error("normal(1 2,1)", "distribution 'normal(1 2,1)': parameter 1 '1 2' is not a number");
    expect_error("normal(1e999,1)", "distribution 'normal(1e999,1)': parameter 1 '1e999' is outside the f64 range");
    expect_error("integers(0,1.5)", "distribution 'integers(0,1.5)': parameter 2 '1.5' is not a number");
    expect_error("integers(0,9223372036854775808)",
                 "distribution 'integers(0,9223372036854775808)': parameter 2 '9223372036854775808' is outside "
                 "the int64 range");
}

TEST(ParseDistribution, ErrorsForInvalidParameters) {
    expect_error("normal(0,-1)", "distribution 'normal(0,-1)': STD must not be negative");
    expect_error("uniform(1,-1)", "distribution 'uniform(1,-1)': LO must not exceed HI");
    expect_error("uniform(-inf,1)", "distribution 'uniform(-inf,1)': LO and HI must be finite");
    expect_error("normal(nan,1)", "distribution 'normal(nan,1)': MEAN and STD must be finite");
    expect_error("integers(5,4)", "distribution 'integers(5,4)': LO must not exceed HI");
}

TEST(ParseDistribution, RoundTripsThroughToString) {
    for (const char* text : {"normal(0,1)", "uniform(-1000,1000)", "integers(-3,3)", "constant(0.1)",
                             "normal(10000,0.01)", "uniform(512,1024)"})
        EXPECT_EQ(to_string(parse_distribution(text)), text);
}

}  // namespace
}  // namespace kcs::ref
