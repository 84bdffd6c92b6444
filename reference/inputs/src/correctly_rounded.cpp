// Correctly rounded ln and cos for the Box-Muller transform of SPEC.md.
//
// The fast paths compute the function as a double word v = hi + lo with a
// relative error proved below (u = 2^-53; the double-word operations and
// their bounds are those of double_word.hpp). round_if_decided() returns the
// f64 nearest to the exact value only if no real within the bound of v is
// a rounding boundary; otherwise MPFR decides. Both paths therefore return
// the correctly rounded result, and the tests compare them on millions of
// arguments, including those that land nearest to the hard cases.
//
// The fast paths are written without branches (each case's steps are exact
// where another case would have skipped them), so that the block functions
// evaluate eight arguments at once in AVX-512 lanes: the same IEEE
// operations, so the same bits, about four times as fast as one at a time.
#include "correctly_rounded.hpp"

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "double_word.hpp"
#include "constants.hpp"

namespace kcs::ref::inputs_detail {

// The double-word steps are fmas: where the CPU has the instruction, a
// clone of fast_log and fast_cos (with their helpers inlined) runs it
// inline instead of calling libm's fma (the same IEEE fma, so the same
// bits; reference/kernels/src/matmul.cpp clones so too).
#define KCS_FMA_CLONES [[gnu::target_clones("fma", "default")]]

namespace {

// The f64 nearest to a real known to lie within eps·|v| of v, and whether
// it is decided: it is when that interval holds no midpoint between two
// f64 (nor an f64 boundary of a binade), for then every point of it, the
// exact value included, rounds to RN(v). `eps` is doubled below to absorb
// the few roundings of the test itself, each at most u relative to
// quantities below ulp(hi). Written without branches (as are the callers)
// so that a loop over many arguments vectorises.
[[gnu::always_inline]] inline double round_if_decided(DoubleWord v, double eps, bool& decided) {
    const DoubleWord n = fast_two_sum(v.hi, v.lo);  // n.hi = RN(n.hi + n.lo) exactly
    const double magnitude = std::abs(n.hi);
    // The spacing of f64 above |hi| is 2^(E - 52) for a normal |hi| of
    // biased exponent E; below it is the same, or half when |hi| is a power
    // of two. Built from the bits: cheaper than two calls to nextafter.
    const auto bits = std::bit_cast<std::uint64_t>(magnitude);
    const std::uint64_t biased_exponent = bits >> 52;
    const bool normal = (biased_exponent > 53) & (biased_exponent != 0x7FF);  // else tiny, inf or NaN: MPFR answers
    const double spacing_above = std::bit_cast<double>((normal ? biased_exponent - 52 : 1) << 52);
    const bool power_of_two = (bits & ((std::uint64_t{1} << 52) - 1)) == 0;
    const double half_gap = power_of_two ? 0.25 * spacing_above : 0.5 * spacing_above;
    decided = normal & (std::abs(n.lo) + 2.0 * eps * magnitude < half_gap);
    return n.hi;
}

// ---------------------------------------------------------------------------
// ln(x), x in [2^-53, 1].
//
// Reduction. x = 2^e·f exactly with f in [√2/2, √2) (exponent and
// fraction fields, then one exact doubling). j = the integer nearest 64·f
// (within 2^-46) is in [45, 91]; c = RN(64/j) and r = f·c - 1 is computed exactly: the fma gives the
// product's error, p - 1 is exact by Sterbenz (p in [0.98, 1.02]) and
// two_sum is exact. |f - j/64| <= 1/128 + 2^-52, so |r| <= 0.0112.
// Then ln x = e·ln2 + L_j + ln(1 + r), L_j = -ln(c) (constants.hpp; for
// j = 64, c = 1 and L_j = 0).
//
// ln(1 + r) = r + r²·(-1/2 + r·(1/3 + r·T)), T = Σ_{k=4..10} (-1)^(k+1) r^(k-4)/k.
//  - truncation after r^10: <= |r|^11/11/(1-|r|), relative <= 2^-68.3;
//  - r·T in f64 from r.hi: <= 18u relative to |r·T| <= 2^-8.5, and it is
//    multiplied by r³: relative <= 2^-57.3·r² <= 2^-70.2;
//  - six double-word operations, all well conditioned (|r²·B| < |r|/100):
//    <= 2^-103; 1/3 as a double word: 2^-108.
//  Total relative error of ln(1 + r): <= 2^-67.9.
// Sum. j != 64 means |f - 1| >= 1/128 - 2^-52, so |ln f| >= 2^-7.01 while
// |L_j + ln(1+r)| terms are <= 0.36: the absolute error 2^-67.9·0.0113 of
// ln(1 + r) is <= 2^-67.4 relative to ln f. e != 0 means |ln x| >= ln2 -
// ln√2 = 0.346; e·ln2 is exact to 53·2^-101 (ln2 split in 47 + 53 bits,
// e·LN2_HI exact for |e| <= 53). Each accurate addition adds 3.1u².
// Bound: relative error of ln x < 2^-67.4, below 2^-66.
// ---------------------------------------------------------------------------

constexpr double kSqrtHalf = 0x1.6a09e667f3bcdp-1;  // RN(√2/2); any split point near it works

[[gnu::always_inline]] inline DoubleWord log1p_small(DoubleWord r) {
    const double rh = r.hi;
    double t = -1.0 / 10.0;
    t = 1.0 / 9.0 + rh * t;
    t = -1.0 / 8.0 + rh * t;
    t = 1.0 / 7.0 + rh * t;
    t = -1.0 / 6.0 + rh * t;
    t = 1.0 / 5.0 + rh * t;
    t = -1.0 / 4.0 + rh * t;
    const DoubleWord a = add(kInv3, rh * t);
    const DoubleWord b = add(mul(a, r), -0.5);
    return add(r, mul(b, mul(r, r)));
}

// ---------------------------------------------------------------------------
// cos(θ), θ in [0, 8).
//
// Reduction. k = the integer nearest θ·2/π (k <= 5), y = θ - k·π/2 with
// π/2 = P1 + P2 + P3 + δ, P1 of 50 bits, P2 of 43, P3 of 53, |δ| < 2^-159.
// k·P1 and k·P2 are exact; θ - k·P1 is exact (both are multiples of 2^-53
// when k >= 1, since θ >= 0.5, and the difference is below 1); two_sum and
// two_prod are exact; the last accurate addition adds 3.1u²·|y|. So
// |y| <= 0.786 with absolute error <= 3.1u²·|y| + 2^-157.
// cos θ = cos y, -sin y, -cos y, sin y for k mod 4 = 0, 1, 2, 3. Where
// k is odd and |y| < 2^-20 the fast path declines (the value is then tiny
// and the reduction's relative error would grow).
//
// With z = y² <= 0.618:
// cos y = 1 + z·(-1/2 + z·(1/24 + z·(-1/720 + z·(1/8! + z·Tc)))),
//   Tc = Σ_{n=5..10} (-1)^n z^(n-5)/(2n)!: truncation <= z^11/22! < 2^-77.6;
//   z^5·Tc <= 2^-25.3 evaluated in f64 from z.hi with <= 20u: 2^-74;
//   relative to cos y >= 0.706: < 2^-73.
// sin y = y·(1 + z·(-1/6 + z·(1/120 + z·(-1/5040 + z·Ts)))),
//   Ts = Σ_{n=4..9} (-1)^n z^(n-4)/(2n+1)!: truncation <= z^10/21! < 2^-72.4;
//   z^4·Ts <= 2^-21.2 in f64 with <= 20u: 2^-72.9; sin y / y >= 0.9.
// About ten double-word operations at condition <= 2: <= 2^-98.
// Bound: relative error of cos θ < 2^-71, below 2^-69.
// ---------------------------------------------------------------------------

[[gnu::always_inline]] inline DoubleWord cos_reduced(DoubleWord z) {
    const double zh = z.hi;
    double t = 1.0 / 2432902008176640000.0;  // 1/20!
    t = -1.0 / 6402373705728000.0 + zh * t;  // 1/18!
    t = 1.0 / 20922789888000.0 + zh * t;     // 1/16!
    t = -1.0 / 87178291200.0 + zh * t;       // 1/14!
    t = 1.0 / 479001600.0 + zh * t;          // 1/12!
    t = -1.0 / 3628800.0 + zh * t;           // 1/10!
    DoubleWord c = add(kInv40320, zh * t);
    c = add(negate(kInv720), mul(c, z));
    c = add(kInv24, mul(c, z));
    c = add(mul(c, z), -0.5);
    return add(mul(c, z), 1.0);
}

[[gnu::always_inline]] inline DoubleWord sin_reduced(DoubleWord y, DoubleWord z) {
    const double zh = z.hi;
    double t = -1.0 / 121645100408832000.0;  // 1/19!
    t = 1.0 / 355687428096000.0 + zh * t;    // 1/17!
    t = -1.0 / 1307674368000.0 + zh * t;     // 1/15!
    t = 1.0 / 6227020800.0 + zh * t;         // 1/13!
    t = -1.0 / 39916800.0 + zh * t;          // 1/11!
    t = 1.0 / 362880.0 + zh * t;             // 1/9!
    DoubleWord s = add(negate(kInv5040), zh * t);
    s = add(kInv120, mul(s, z));
    s = add(negate(kInv6), mul(s, z));
    s = add(mul(s, z), 1.0);
    return mul(s, y);
}

// ln x if the fast path decides it (`decided`), for any x.
[[gnu::always_inline]] inline double log_candidate(double x, bool& decided) {
    const bool in_domain = (x >= 0x1p-53) & (x <= 1.0);
    const double y = in_domain ? x : 0.5;  // outside: any argument of the domain, its result unused

    // y = f·2^exponent with f in [0.5, 1), from the bits (y is normal).
    const auto bits = std::bit_cast<std::uint64_t>(y);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    const bool doubled = std::bit_cast<double>(fraction | std::uint64_t{1022} << 52) < kSqrtHalf;
    const double f = std::bit_cast<double>(fraction | (doubled ? std::uint64_t{1023} : std::uint64_t{1022}) << 52);
    const auto exponent = static_cast<std::int64_t>(bits >> 52) - (doubled ? 1023 : 1022);
    const auto j = static_cast<std::int64_t>(f * 64.0 + 0.5);

    // For j = 64 (c = 1, L_j = 0) these steps are exact and give
    // ln(1 + (f - 1)); for e = 0 e·ln2 is exactly zero and the addition
    // only renormalises an already normalised double word: the bits are
    // those of the case-by-case evaluation, without its branches.
    const DoubleWord p = two_prod(f, 64.0 / static_cast<double>(j));
    const DoubleWord r = two_sum(p.hi - 1.0, p.lo);
    const auto& l_j = kLogOfInverse[static_cast<std::size_t>(j - kLogTableFirst)];  // j in [45, 91]: y is in the domain
    const DoubleWord ln_f = add(DoubleWord{l_j.hi, l_j.lo}, log1p_small(r));  // member by member: vector gathers
    const auto e = static_cast<double>(exponent);
    const DoubleWord e_ln2 = fast_two_sum(e * kLn2Hi, e * kLn2Lo);
    const double value = round_if_decided(add(e_ln2, ln_f), kFastPathErrorBound, decided);
    decided = decided & in_domain;  // ln 1 = 0 is left to the caller: a zero never passes the rounding test
    return value;
}

// cos θ if the fast path decides it (`decided`), for any θ.
[[gnu::always_inline]] inline double cos_candidate(double theta, bool& decided) {
    const bool in_domain = (theta >= 0.0) & (theta < 8.0);
    const double t = in_domain ? theta : 0.0;  // outside: any argument of the domain, its result unused

    // 64-bit integers, as wide as the doubles: the lanes of a vector line up
    const auto k = static_cast<std::int64_t>(t * kTwoOverPi + 0.5);
    const auto kd = static_cast<double>(k);
    const double t1 = t - kd * kPiOver2Part1;
    const DoubleWord t2 = two_sum(t1, -(kd * kPiOver2Part2));
    const DoubleWord y = add(t2, negate(two_prod(kd, kPiOver2Part3)));
    const bool odd = static_cast<double>(k & 1) != 0.0;  // compared as a double: that vectorises

    const DoubleWord z = mul(y, y);
    const DoubleWord sin_y = sin_reduced(y, z), cos_y = cos_reduced(z);
    DoubleWord value = odd ? sin_y : cos_y;
    if (((k + 1) & 2) != 0) value = negate(value);  // k mod 4 = 1 or 2
    const double result = round_if_decided(value, kFastPathErrorBound, decided);
    const bool tiny_sine = std::abs(y.hi) < (odd ? 0x1p-20 : 0.0);  // odd k, |y| < 2^-20
    decided = decided & in_domain & !tiny_sine;
    return result;
}

enum class Function { log, cos };

// The fast path over a block, then MPFR for the arguments it left
// undecided. In a function cloned for the vector extensions the CPU may
// have, the first loop evaluates several arguments at once: the same IEEE
// operations lane by lane, so the same bits as one at a time.
template <Function function>
[[gnu::always_inline]] inline void correctly_rounded_block(std::span<const double> x, std::span<double> out) {
    if (out.size() != x.size())
        throw std::invalid_argument("a block of correctly rounded values needs one place per argument");
    constexpr std::size_t kBlock = 64;
    for (std::size_t first = 0; first < x.size(); first += kBlock) {
        const std::size_t n = std::min(kBlock, x.size() - first);
        bool decided[kBlock];
        for (std::size_t k = 0; k < n; ++k)
            out[first + k] = function == Function::log ? log_candidate(x[first + k], decided[k])
                                                       : cos_candidate(x[first + k], decided[k]);
        for (std::size_t k = 0; k < n; ++k)
            if (!decided[k])
                out[first + k] = function == Function::log ? log_by_mpfr(x[first + k]) : cos_by_mpfr(x[first + k]);
    }
}

}  // namespace

KCS_FMA_CLONES std::optional<double> fast_log(double x) {
    if (x == 1.0) return 0.0;  // ln 1 = 0 exactly
    bool decided = false;
    const double value = log_candidate(x, decided);
    return decided ? std::optional(value) : std::nullopt;
}

KCS_FMA_CLONES std::optional<double> fast_cos(double theta) {
    bool decided = false;
    const double value = cos_candidate(theta, decided);
    return decided ? std::optional(value) : std::nullopt;
}

double log_by_mpfr(double x) {
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, x, MPFR_RNDN);  // exact: 53 bits hold any f64
    mpfr_log(v, v, MPFR_RNDN);
    const double result = mpfr_get_d(v, MPFR_RNDN);  // exact: v has 53 bits, normal range
    mpfr_clear(v);
    return result;
}

double cos_by_mpfr(double theta) {
    mpfr_t v;
    mpfr_init2(v, 53);
    mpfr_set_d(v, theta, MPFR_RNDN);
    mpfr_cos(v, v, MPFR_RNDN);
    const double result = mpfr_get_d(v, MPFR_RNDN);
    mpfr_clear(v);
    return result;
}

double correctly_rounded_log(double x) {
    if (const auto fast = fast_log(x)) return *fast;
    return log_by_mpfr(x);
}

double correctly_rounded_cos(double theta) {
    if (const auto fast = fast_cos(theta)) return *fast;
    return cos_by_mpfr(theta);
}

// AVX-512 converts between 64-bit integers and doubles in vector lanes;
// AVX2 does not, and its clone would not vectorise. Clang before 18
// dispatches target_clones("arch=...") wrongly (LLVM issue 55830): there
// the default code runs (the same bits, one lane).
#if defined(__clang__)
#define KCS_VECTOR_CLONES
#else
#define KCS_VECTOR_CLONES [[gnu::target_clones("arch=x86-64-v4", "default")]]
#endif

KCS_VECTOR_CLONES void correctly_rounded_logs(std::span<const double> x, std::span<double> out) {
    correctly_rounded_block<Function::log>(x, out);
}

KCS_VECTOR_CLONES void correctly_rounded_cosines(std::span<const double> theta, std::span<double> out) {
    correctly_rounded_block<Function::cos>(theta, out);
}

}  // namespace kcs::ref::inputs_detail
