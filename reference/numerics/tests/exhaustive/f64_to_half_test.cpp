// f64 -> f16 and -> bf16 under round-to-nearest-even against a reference
// free of double rounding: it brackets |x| between two adjacent values of
// the format, found by binary search over the encodings with the exact
// decode, and compares |x| with their midpoint, which a double holds
// exactly (p + 1 <= 25 significant bits). No conversion to f32 happens, so
// no intermediate rounding can hide a wrong tie. Checked on every midpoint
// of the format (and the doubles next to it) and on a large random sample.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <ostream>
#include <string>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::ref {

// gtest prints parameters with PrintTo, found by argument-dependent lookup.
[[maybe_unused]] static void PrintTo(Format format, std::ostream* os) { *os << to_string(format); }

namespace {

using kcs::ref::testing::splitmix64;

// The value of a magnitude encoding, with inf's encoding standing for
// 2^(emax+1): the point one step beyond the largest finite, where the
// overflow midpoint is measured from.
double magnitude_value(Format format, std::uint32_t encoding, std::uint32_t inf_encoding) {
    return encoding == inf_encoding ? std::ldexp(1.0, info(format).exponent_bias + 1) : decode(format, encoding);
}

std::uint32_t reference_nearest_even(Format format, double x) {
    const FormatInfo& f = info(format);
    const std::uint32_t sign = std::signbit(x) ? std::uint32_t{1} << (f.storage_bits - 1) : 0;
    const std::uint32_t inf_encoding = ((std::uint32_t{1} << f.exponent_bits) - 1) << (f.precision - 1);
    const double a = std::fabs(x);
    if (std::isinf(a)) return sign | inf_encoding;
    // lo: the largest encoding whose value is <= a (encodings of magnitudes are ordered like values).
    std::uint32_t lo = 0, hi = inf_encoding;
    if (a >= magnitude_value(format, inf_encoding, inf_encoding)) return sign | inf_encoding;
    while (hi - lo > 1) {  // invariant: value(lo) <= a < value(hi)
        const std::uint32_t mid = lo + (hi - lo) / 2;
        (magnitude_value(format, mid, inf_encoding) <= a ? lo : hi) = mid;
    }
    const double low = magnitude_value(format, lo, inf_encoding);
    const double high = magnitude_value(format, lo + 1, inf_encoding);
    const double midpoint = low + (high - low) / 2;  // exact: both terms exact in f64
    std::uint32_t result = lo;
    if (a > midpoint || (a == midpoint && (lo & 1u) != 0)) result = lo + 1;
    return sign | result;
}

class F64ToHalf : public ::testing::TestWithParam<Format> {};

TEST_P(F64ToHalf, EveryMidpointAndItsNeighbours) {
    const Format format = GetParam();
    const FormatInfo& f = info(format);
    const std::uint32_t inf_encoding = ((std::uint32_t{1} << f.exponent_bits) - 1) << (f.precision - 1);
    std::uint64_t checked = 0;
    for (std::uint32_t e = 0; e < inf_encoding; ++e) {
        const double low = decode(format, e);
        const double high = magnitude_value(format, e + 1, inf_encoding);
        const double midpoint = low + (high - low) / 2;
        for (double sign : {1.0, -1.0}) {
            for (double x : {midpoint, std::nextafter(midpoint, 0.0), std::nextafter(midpoint, 1e300)}) {
                ASSERT_EQ(encode(format, sign * x), reference_nearest_even(format, sign * x))
                    << f.name << " x = " << std::hexfloat << sign * x;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 6u * inf_encoding);
}

TEST_P(F64ToHalf, RandomSample) {
    const Format format = GetParam();
    const FormatInfo& f = info(format);
    std::uint64_t state = 0x6B637366 + static_cast<std::uint64_t>(format);
    constexpr int kSamples = 2'000'000;
    for (int i = 0; i < kSamples; ++i) {
        const std::uint64_t r = splitmix64(state);
        // Half the sample: any f64 whatever; half: exponents from below the
        // format's subnormals to beyond its overflow, random significand.
        double x = std::bit_cast<double>(r);
        if (i % 2 == 0) {
            const int span = 2 * f.exponent_bias + f.precision + 4;  // emin - p - 2 .. emax + 2
            const int exponent = 1 - f.exponent_bias - f.precision - 2 + static_cast<int>((r >> 52) % span);
            const std::uint64_t significand = (r & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
            x = std::ldexp(static_cast<double>(significand), exponent - 52) * ((r >> 63) != 0 ? -1.0 : 1.0);
        }
        if (std::isnan(x)) continue;  // NaNs: RoundingNaN in the unit tests
        ASSERT_EQ(encode(format, x), reference_nearest_even(format, x)) << f.name << " x = " << std::hexfloat << x;
    }
}

std::string format_name(const ::testing::TestParamInfo<Format>& p) { return std::string(to_string(p.param)); }

INSTANTIATE_TEST_SUITE_P(Formats, F64ToHalf, ::testing::Values(Format::f16, Format::bf16), format_name);

}  // namespace
}  // namespace kcs::ref
