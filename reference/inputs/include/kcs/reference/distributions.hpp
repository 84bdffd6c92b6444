// The distributions of SPEC.md section 4, computed from Philox words by
// formulas fixed bit for bit: no std::*_distribution, no libm call whose
// result is not correctly rounded. Each element uses exactly one block.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "kcs/reference/philox.hpp"

namespace kcs::ref {

// uniform(LO, HI): LO ⊕ ((HI ⊖ LO) ⊗ U(w0, w1)); may equal HI after rounding.
struct Uniform {
    double lo;
    double hi;
};

// normal(MEAN, STD): Box-Muller, cosine branch, one variate per element.
struct Normal {
    double mean;
    double std;
};

// Integers in [LO, HI], inclusive, by Lemire's multiply-shift without
// rejection (bias at most n / 2^64 per value, accepted by SPEC.md).
struct Integers {
    std::int64_t lo;
    std::int64_t hi;
};

// constant(V) and ones: every element RN_t(V); consumes no Philox block.
struct Constant {
    double value;
};

using Distribution = std::variant<Uniform, Normal, Integers, Constant>;

inline constexpr Constant kOnes{1.0};

// U(wa, wb) = ((wa·2^32 + wb) >> 11) · 2^-53, in [0, 1 - 2^-53]. Exact:
// the 53-bit integer converts exactly and the power of two scales exactly.
constexpr double unit_uniform(std::uint32_t wa, std::uint32_t wb) {
    const std::uint64_t bits = (std::uint64_t{wa} << 32 | wb) >> 11;
    return static_cast<double>(bits) * 0x1p-53;
}

// floor(x·n / 2^64): the high half of the 128-bit product, computed from
// 32-bit limbs so that no compiler extension is needed.
std::uint64_t multiply_high(std::uint64_t x, std::uint64_t n);

// The standard normal z of SPEC.md (|z| < 8.6), with correctly rounded ln
// and cos.
double standard_normal(const PhiloxBlock& block);

// standard_normal of each block, out[k] for blocks[k], the ln and cos of
// many elements evaluated at once (the same bits, faster). Throws
// std::invalid_argument when the sizes differ.
void standard_normals(std::span<const PhiloxBlock> blocks, std::span<double> out);

// The f64 value x of one element, before it is rounded to the tensor's dtype.
double sample(const Uniform& d, const PhiloxBlock& block);
double sample(const Normal& d, const PhiloxBlock& block);
std::int64_t sample(const Integers& d, const PhiloxBlock& block);
double sample(const Constant& d, const PhiloxBlock& block);

// The f64 value of any distribution. For Integers it is the integer v,
// exact because validate_for_floats() keeps |LO|, |HI| <= 2^53.
double sample_f64(const Distribution& d, const PhiloxBlock& block);

// Throws std::invalid_argument naming the problem: non-finite parameters,
// LO > HI, HI ⊖ LO not finite, STD < 0, an integer range of more than 2^63
// values.
void validate(const Distribution& d);

// validate(), and for Integers also |LO|, |HI| <= 2^53 so that every value
// is an exact f64 and RN_t(v) rounds only once.
void validate_for_floats(const Distribution& d);

// The catalog's spelling, parameters in shortest round-trip form:
// "normal(0,1)", "uniform(-1,1)", "integers(0,9)", "constant(0.5)".
std::string to_string(const Distribution& d);

}  // namespace kcs::ref
