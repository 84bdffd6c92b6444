#include "f32_test_inputs.hpp"

#include "kcs/reference/testing/splitmix64.hpp"

#include <bit>
#include <cmath>
#include <numbers>
#include <utility>

namespace kcs::ref::testing {
namespace {

std::uint32_t f32_bits(double value) { return encode(Format::f32, value); }

bool is_finite_f32(std::uint32_t bits) { return (bits & 0x7F80'0000u) != 0x7F80'0000u; }

// f32 encodings in the order of their values, as signed integers: -0 and
// +0 both map to 0, and consecutive integers are consecutive values.
std::int64_t ordinal(std::uint32_t bits) {
    const std::int64_t magnitude = bits & 0x7FFF'FFFFu;
    return (bits >> 31) != 0 ? -magnitude : magnitude;
}
std::uint32_t from_ordinal(std::int64_t ordinal) {
    return ordinal < 0 ? 0x8000'0000u | static_cast<std::uint32_t>(-ordinal)
                       : static_cast<std::uint32_t>(ordinal);
}

// The finite f32 values within `radius` steps of RN(center), both sides.
void add_neighbours(std::vector<std::uint32_t>& out, double center, int radius) {
    const std::int64_t middle = ordinal(f32_bits(center));
    for (int k = -radius; k <= radius; ++k) {
        const std::uint32_t bits = from_ordinal(middle + k);
        if (is_finite_f32(bits)) out.push_back(bits);
    }
}

// Both signs of each threshold.
void add_symmetric_neighbours(std::vector<std::uint32_t>& out, double center, int radius) {
    add_neighbours(out, center, radius);
    add_neighbours(out, -center, radius);
}

// The x in [a, b] where an increasing g crosses zero, to double precision.
template <typename G>
double crossing(G g, double a, double b) {
    for (int i = 0; i < 200; ++i) {
        const double mid = 0.5 * (a + b);
        (g(mid) < 0 ? a : b) = mid;
    }
    return 0.5 * (a + b);
}

// Just below 1 the f32 values are 2^-24 apart: 1 - 2^-25 is the last
// midpoint before a saturating function rounds to 1.
constexpr double kLastMidpointBelowOne = 1.0 - 0x1p-25;
constexpr double kOverflowThreshold = 0x1.ffffffp127;  // f32 max + ulp/2

constexpr int kThresholdRadius = 16;

void add_function_thresholds(std::vector<std::uint32_t>& out, UnaryFunction function) {
    const double underflow_points[] = {std::log(0x1p-126), std::log(0x1p-149), std::log(0x1p-150)};
    switch (function) {
        case UnaryFunction::exp:
            add_neighbours(out, std::log(kOverflowThreshold), kThresholdRadius);
            for (const double point : underflow_points) add_neighbours(out, point, kThresholdRadius);
            // exp's hard cases cluster at multiples of ln 2 (its reduction).
            for (int k = -150; k <= 128; ++k) {
                add_neighbours(out, k * std::numbers::ln2, 1);
                add_neighbours(out, (k + 0.5) * std::numbers::ln2, 1);
            }
            return;
        case UnaryFunction::log:
            add_neighbours(out, 1.0, 64);
            for (int k = -149; k <= 127; ++k) add_neighbours(out, std::ldexp(1.0, k), 1);
            return;
        case UnaryFunction::tanh:
            add_symmetric_neighbours(out, std::atanh(kLastMidpointBelowOne), kThresholdRadius);
            add_symmetric_neighbours(out, 0x1p-11, kThresholdRadius);  // tanh(x) rounds to x below
            return;
        case UnaryFunction::erf:
            add_symmetric_neighbours(
                out, crossing([](double x) { return 0x1p-25 - std::erfc(x); }, 1.0, 6.0),
                kThresholdRadius);
            return;
        case UnaryFunction::gelu: {
            const auto gelu = [](double x) { return 0.5 * x * std::erfc(-x / std::numbers::sqrt2); };
            for (const double level : {0x1p-150, 0x1p-149, 0x1p-126}) {
                add_neighbours(out, crossing([&](double x) { return std::fabs(gelu(x)) - level; }, -20.0, -1.0),
                               kThresholdRadius);
            }
            // gelu(x) rounds to x above this: Phi(x) within 2^-25 of 1.
            add_neighbours(out, crossing([](double x) { return 0x1p-24 - std::erfc(x / std::numbers::sqrt2); }, 1.0, 10.0),
                           kThresholdRadius);
            // The library's symbolic cases start at |x| = 2^-30 and x = -20.
            add_symmetric_neighbours(out, 0x1p-30, kThresholdRadius);
            add_symmetric_neighbours(out, 0x1p-40, kThresholdRadius);
            add_neighbours(out, -20.0, kThresholdRadius);
            return;
        }
        case UnaryFunction::sigmoid:
            for (const double point : underflow_points) add_neighbours(out, point, kThresholdRadius);
            add_neighbours(out, std::log(0x1p25 - 1.0), kThresholdRadius);  // 1/(1 + e^-x) = 1 - 2^-25
            return;
        case UnaryFunction::rsqrt:
            for (int k = -149; k <= 127; ++k) add_neighbours(out, std::ldexp(1.0, k), 1);
            return;
    }
}

}  // namespace

std::vector<std::uint32_t> f32_special_inputs() {
    std::vector<std::uint32_t> out = {
        0x0000'0000u, 0x8000'0000u,  // +-0
        0x7F80'0000u, 0xFF80'0000u,  // +-inf
        0x7FC0'0000u, 0xFFC0'0000u, 0x7FC0'0001u, 0x7FFF'FFFFu, 0xFFFF'FFFFu,  // quiet NaNs
        0x7F80'0001u, 0xFF80'0001u, 0x7FBF'FFFFu,  // signalling NaNs
    };
    for (const std::uint32_t magnitude : {0x0000'0001u, 0x007F'FFFFu, 0x0080'0000u, 0x7F7F'FFFFu, 0x3F80'0000u}) {
        out.push_back(magnitude);                 // smallest/largest subnormal, smallest normal,
        out.push_back(magnitude | 0x8000'0000u);  // largest finite, 1; both signs
    }
    return out;
}

std::vector<std::uint32_t> f32_hard_inputs(UnaryFunction function) {
    std::vector<std::uint32_t> out;
    for (const double switch_point : {0x1p-5, 0.5, 1.0, 2.0, 4.0, 9.0}) {
        add_symmetric_neighbours(out, switch_point, 8);
    }
    add_function_thresholds(out, function);
    return out;
}

std::vector<std::uint32_t> f32_sampled_inputs(UnaryFunction function) {
    // One stream per function and kind of sample: changing one list leaves
    // the others as they were.
    const std::uint64_t seed = 0x6B63'7300'0000'0000u + 16 * static_cast<std::uint64_t>(function);
    std::vector<std::uint32_t> out;

    SplitMix64 patterns(seed);
    while (out.size() < kSampledBitPatterns) {
        const auto bits = static_cast<std::uint32_t>(patterns.next() >> 32);
        if (is_finite_f32(bits)) out.push_back(bits);
    }

    SplitMix64 uniform16(seed + 1);
    for (std::size_t i = 0; i < kSampledUniform16; ++i) {
        out.push_back(f32_bits(-16.0 + 32.0 * uniform16.uniform()));
    }

    // Where f changes most: its working range before it saturates,
    // overflows or underflows in f32.
    std::pair<double, double> range{-16.0, 16.0};
    switch (function) {
        case UnaryFunction::exp: range = {-104.0, 89.0}; break;
        case UnaryFunction::log: range = {0.0, 3.0}; break;
        case UnaryFunction::tanh: range = {-10.0, 10.0}; break;
        case UnaryFunction::erf: range = {-4.5, 4.5}; break;
        case UnaryFunction::gelu: range = {-15.0, 6.0}; break;
        case UnaryFunction::sigmoid: range = {-105.0, 18.0}; break;
        case UnaryFunction::rsqrt: range = {0.0, 16.0}; break;
    }
    SplitMix64 uniform_range(seed + 2);
    for (std::size_t i = 0; i < kSampledFunctionRange; ++i) {
        out.push_back(f32_bits(range.first + (range.second - range.first) * uniform_range.uniform()));
    }
    return out;
}

}  // namespace kcs::ref::testing
