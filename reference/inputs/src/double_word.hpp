// Double-word ("double-double") arithmetic: a value hi + lo held in two f64
// with |lo| <= ulp(hi)/2. The error bounds quoted are those proved by
// Joldes, Muller and Popescu, "Tight and rigorous error bounds for basic
// building blocks of double-word arithmetic", ACM TOMS 44(2), 2017, with
// u = 2^-53, in the absence of underflow and overflow (every quantity here
// lies between 2^-400 and 2^10 in magnitude).
//
// These are exact only if every operation is rounded as written: the
// library is compiled with -ffp-contract=off, and std::fma is IEEE fma.
#pragma once

#include <cmath>

#if defined(__FAST_MATH__)
#error "kcs_inputs needs IEEE arithmetic: do not compile it with -ffast-math"
#endif

namespace kcs::ref::inputs_detail {

struct DoubleWord {
    double hi;
    double lo;
};

// a + b = s + e exactly (Knuth's TwoSum, no precondition).
inline DoubleWord two_sum(double a, double b) {
    const double s = a + b;
    const double bb = s - a;
    const double e = (a - (s - bb)) + (b - bb);
    return {s, e};
}

// a + b = s + e exactly, when a == 0 or exponent(a) >= exponent(b) (Dekker).
inline DoubleWord fast_two_sum(double a, double b) {
    const double s = a + b;
    const double e = b - (s - a);
    return {s, e};
}

// a·b = p + e exactly (the fma computes the rounding error of the product).
inline DoubleWord two_prod(double a, double b) {
    const double p = a * b;
    const double e = std::fma(a, b, -p);
    return {p, e};
}

inline DoubleWord negate(DoubleWord x) { return {-x.hi, -x.lo}; }

// x + y, y an f64 (DWPlusFP, Algorithm 4): relative error <= 2u².
inline DoubleWord add(DoubleWord x, double y) {
    const DoubleWord s = two_sum(x.hi, y);
    const double v = x.lo + s.lo;
    return fast_two_sum(s.hi, v);
}

// x + y (AccurateDWPlusDW, Algorithm 6): relative error <= 3u² + 13u³,
// whatever the signs, so cancellation costs nothing.
inline DoubleWord add(DoubleWord x, DoubleWord y) {
    const DoubleWord s = two_sum(x.hi, y.hi);
    const DoubleWord t = two_sum(x.lo, y.lo);
    const double c = s.lo + t.hi;
    const DoubleWord v = fast_two_sum(s.hi, c);
    const double w = t.lo + v.lo;
    return fast_two_sum(v.hi, w);
}

// x·y, y an f64 (DWTimesFP3, Algorithm 9): relative error <= 2u².
inline DoubleWord mul(DoubleWord x, double y) {
    const DoubleWord c = two_prod(x.hi, y);
    const double c3 = std::fma(x.lo, y, c.lo);
    return fast_two_sum(c.hi, c3);
}

// x·y (DWTimesDW3, Algorithm 12): relative error <= 5u².
inline DoubleWord mul(DoubleWord x, DoubleWord y) {
    const DoubleWord c = two_prod(x.hi, y.hi);
    const double t0 = x.lo * y.lo;
    const double t1 = std::fma(x.hi, y.lo, t0);
    const double c2 = std::fma(x.lo, y.hi, t1);
    const double c3 = c.lo + c2;
    return fast_two_sum(c.hi, c3);
}

}  // namespace kcs::ref::inputs_detail
