// Test and benchmark data without std::*_distribution (whose output differs
// between standard libraries): SplitMix64 (Steele, Lea and Flood 2014).
// Not the catalog's input generator (that is Philox4x32-10, kcs_inputs):
// only a fixed, portable stream of bits for tests to sample from.
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>

namespace kcs::ref::testing {

// One step of the stream kept in `state`.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() { return splitmix64(state_); }

    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53; }
    double uniform(double low, double high) { return low + (high - low) * uniform(); }

    // Standard normal by Box-Muller (one of the pair).
    double normal() {
        const double radius = std::sqrt(-2.0 * std::log1p(-uniform()));
        return radius * std::cos(2.0 * std::numbers::pi * uniform());
    }

    std::uint64_t below(std::uint64_t n) { return next() % n; }

private:
    std::uint64_t state_;
};

}  // namespace kcs::ref::testing
