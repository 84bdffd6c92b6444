// The fast ln and cos paths either decline or agree with MPFR, bit for bit:
// on the arguments the generator produces and on those nearest the hard
// places (x near 1 and near 2^-53, binade edges, θ near multiples of π/2).
#include "correctly_rounded.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include "kcs/reference/philox.hpp"
#include "kcs/reference/distributions.hpp"

namespace kcs::ref::inputs_detail {
namespace {

constexpr double kTwoPi = 0x1.921fb54442d18p+2;

struct Tally {
    long checked = 0;
    long declined = 0;
};

void check_log(double x, Tally& tally) {
    const std::optional<double> fast = fast_log(x);
    ++tally.checked;
    if (!fast) {
        ++tally.declined;
        return;
    }
    ASSERT_EQ(*fast, log_by_mpfr(x)) << std::hexfloat << "ln(" << x << ")";
}

void check_cos(double theta, Tally& tally) {
    const std::optional<double> fast = fast_cos(theta);
    ++tally.checked;
    if (!fast) {
        ++tally.declined;
        return;
    }
    ASSERT_EQ(*fast, cos_by_mpfr(theta)) << std::hexfloat << "cos(" << theta << ")";
}

TEST(CorrectlyRoundedLog, AgreesWithMpfrOnGeneratedArguments) {
    Tally tally;
    for (std::uint64_t i = 0; i < 150000; ++i) {
        const PhiloxBlock b = philox_block(0xC0FFEE, 0, 0, i);
        check_log(1.0 - unit_uniform(b[0], b[1]), tally);
    }
    // The rounding test declines about one argument in a hundred.
    EXPECT_LT(tally.declined, tally.checked / 50);
}

TEST(CorrectlyRoundedLog, AgreesWithMpfrNearOneAndNearTheSmallestArgument) {
    Tally tally;
    for (std::uint64_t k = 1; k <= 20000; ++k) {
        check_log(1.0 - static_cast<double>(k) * 0x1p-53, tally);  // just below 1: ln x ≈ -k·2^-53
        check_log(static_cast<double>(k) * 0x1p-53, tally);        // the smallest 1 - u1
    }
    EXPECT_LT(tally.declined, tally.checked / 50);
}

TEST(CorrectlyRoundedLog, AgreesWithMpfrAcrossBinadesAndTableEdges) {
    Tally tally;
    for (int e = -53; e <= 0; ++e) {
        for (int j = 44; j <= 92; ++j) {
            // Around the table's cut points j/64 ± 1/128 and the √2/2 split.
            for (const double centre : {(j - 0.5) / 64.0, j / 64.0, 0x1.6a09e667f3bcdp-1, 0.5, 1.0}) {
                double x = std::ldexp(centre, e);
                for (int step = 0; step < 8; ++step, x = std::nextafter(x, 0.0))
                    if (x >= 0x1p-53 && x <= 1.0) check_log(x, tally);
            }
        }
    }
    EXPECT_LT(tally.declined, tally.checked / 20);
}

TEST(CorrectlyRoundedLog, ExactCasesAndOutsideTheFastDomain) {
    EXPECT_EQ(fast_log(1.0), 0.0);
    EXPECT_FALSE(std::signbit(*fast_log(1.0)));
    EXPECT_EQ(correctly_rounded_log(0x1p-53), log_by_mpfr(0x1p-53));
    EXPECT_FALSE(fast_log(0x1p-54).has_value());  // outside the domain: MPFR answers
    EXPECT_FALSE(fast_log(2.0).has_value());
    EXPECT_EQ(correctly_rounded_log(2.0), 0x1.62e42fefa39efp-1);
    EXPECT_EQ(correctly_rounded_log(0.5), -0x1.62e42fefa39efp-1);
}

TEST(CorrectlyRoundedCos, AgreesWithMpfrOnGeneratedArguments) {
    Tally tally;
    for (std::uint64_t i = 0; i < 150000; ++i) {
        const PhiloxBlock b = philox_block(0xC0FFEE, 0, 0, i);
        check_cos(kTwoPi * unit_uniform(b[2], b[3]), tally);
    }
    EXPECT_LT(tally.declined, tally.checked / 50);
}

TEST(CorrectlyRoundedCos, AgreesWithMpfrNearMultiplesOfHalfPi) {
    Tally tally;
    for (int k = 0; k <= 4; ++k) {
        // k·π/2 and the reduction's cut points (2k+1)·π/4.
        for (const double centre : {k * 0x1.921fb54442d18p+0, (2 * k + 1) * 0x1.921fb54442d18p-1}) {
            double theta = centre;
            for (int step = 0; step < 3000; ++step) theta = std::nextafter(theta, 0.0);
            for (int step = 0; step < 6000; ++step, theta = std::nextafter(theta, 8.0))
                if (theta >= 0.0 && theta <= kTwoPi) check_cos(theta, tally);
        }
    }
    // Next to odd multiples of π/2 the fast path always declines (|y| < 2^-20).
    EXPECT_FALSE(fast_cos(0x1.921fb54442d18p+0).has_value());
    EXPECT_EQ(correctly_rounded_cos(0x1.921fb54442d18p+0), 0x1.1a62633145c07p-54);
    EXPECT_EQ(correctly_rounded_cos(0x1.2d97c7f3321d2p+2), -0x1.a79394c9e8a0ap-53);
}

TEST(CorrectlyRoundedCos, ExactCasesAndOutsideTheFastDomain) {
    EXPECT_EQ(fast_cos(0.0), 1.0);
    EXPECT_EQ(correctly_rounded_cos(kTwoPi), cos_by_mpfr(kTwoPi));
    EXPECT_FALSE(fast_cos(-1.0).has_value());
    EXPECT_FALSE(fast_cos(8.0).has_value());
    EXPECT_EQ(correctly_rounded_cos(-1.0), correctly_rounded_cos(1.0));
}

// The block functions evaluate the fast paths in vector lanes: each result
// must be the bits of the one-at-a-time function, at every lane of a block,
// in the block's tail, outside the fast domains and where the fast paths
// decline (MPFR answers inside the block function too).
TEST(CorrectlyRoundedBlocks, GiveTheBitsOfOneArgumentAtATime) {
    std::vector<double> x, theta;
    for (std::uint64_t i = 0; i < 20000; ++i) {
        const PhiloxBlock b = philox_block(0xB10C, 0, 0, i);
        x.push_back(1.0 - unit_uniform(b[0], b[1]));
        theta.push_back(kTwoPi * unit_uniform(b[2], b[3]));
    }
    for (const double edge : {1.0, 0x1p-53, 0x1p-54, 2.0, 0.5, 0x1.6a09e667f3bcdp-1, -1.0})
        x.push_back(edge);
    for (int k = 0; k <= 5; ++k)  // around k·π/2, where odd k leaves a tiny sine to MPFR
        for (double t = k * 0x1.921fb54442d18p+0, step = 0; step < 4; ++step, t = std::nextafter(t, 8.0))
            theta.push_back(t);
    for (const double edge : {0.0, 8.0, 7.999999999999999, -1.0, 10.0}) theta.push_back(edge);
    x.resize(x.size() + 3, 0.75);  // a tail past the last full vector
    std::vector<double> logs(x.size()), cosines(theta.size());
    correctly_rounded_logs(x, logs);
    correctly_rounded_cosines(theta, cosines);
    for (std::size_t i = 0; i < x.size(); ++i)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(logs[i]), std::bit_cast<std::uint64_t>(correctly_rounded_log(x[i])))
            << std::hexfloat << "ln(" << x[i] << ") at " << i;
    for (std::size_t i = 0; i < theta.size(); ++i)
        ASSERT_EQ(std::bit_cast<std::uint64_t>(cosines[i]),
                  std::bit_cast<std::uint64_t>(correctly_rounded_cos(theta[i])))
            << std::hexfloat << "cos(" << theta[i] << ") at " << i;
    EXPECT_THROW(correctly_rounded_logs(x, std::span(logs).first(1)), std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::inputs_detail
