// Error-free transformations and compensated accumulation in f64: the
// summation under every reduction oracle.
//
// CompensatedSum is Ogita, Rump and Oishi's Sum2 ("Accurate sum and dot
// product", SIAM J. Sci. Comput. 26(6), 2005, Alg. 4.4; Neumaier's method
// with a branch-free TwoSum). With u = 2^-53 and n terms p_i, the result
// res satisfies (their Prop. 4.5)
//     |res - sum p_i| <= u |sum p_i| + gamma(n-1, u)^2 * sum |p_i|,
// gamma(k, u) = k u / (1 - k u): as if summed in twice the precision and
// rounded once. CompensatedDot is their Dot2 (Alg. 5.3, Prop. 5.5):
//     |res - sum a_i b_i| <= u |sum a_i b_i| + gamma(n, u)^2 * sum |a_i b_i|,
// provided no product's error falls below the subnormal range
// (|a_i b_i| >= 2^-969); products of f32 values never do.
// Both need the exact sum and the partial sums to stay finite in f64.
// IEEE special values behave as in a plain f64 sum: a NaN term, or +inf and
// -inf together, give NaN; otherwise an infinite term gives that infinity.
// Code that includes this header must not be built with -ffast-math or
// -fassociative-math: reassociation turns TwoSum's error term into zero.
#pragma once

#include <cmath>

namespace kcs::ref {

// An unevaluated sum: the exact value is hi + lo.
struct DoubleDouble {
    double hi = 0.0;
    double lo = 0.0;
};

// a + b == hi + lo exactly for finite a, b whose sum does not overflow
// (Knuth's TwoSum: no branch, no assumption on the order of magnitudes).
inline DoubleDouble two_sum(double a, double b) {
    const double sum = a + b;
    const double b_virtual = sum - a;
    const double a_virtual = sum - b_virtual;
    return {sum, (a - a_virtual) + (b - b_virtual)};
}

// a * b == hi + lo exactly unless the product overflows or its error is
// below the subnormal range (|a*b| < 2^-969).
inline DoubleDouble two_product(double a, double b) {
    const double product = a * b;
    return {product, std::fma(a, b, -product)};
}

class CompensatedSum {
public:
    void add(double term) { add_with_error(term, 0.0); }

    // Adds term + error where error is known exactly to be far below term
    // (the rounding error of a product): it joins the compensation.
    void add_with_error(double term, double error) {
        const DoubleDouble s = two_sum(sum_, term);
        sum_ = s.hi;
        compensation_ += s.lo + error;
        magnitude_ += std::fabs(term);
    }

    // The sum, rounded to f64 with the bound in the header comment.
    double value() const {
        // A zero compensation keeps the sign of an all -0 sum; a non-finite
        // running sum is already the IEEE result (its compensation is NaN).
        if (compensation_ == 0.0 || !std::isfinite(sum_)) return sum_;
        return sum_ + compensation_;
    }

    // The sum as hi + lo, |lo| <= ulp(hi)/2, for callers that keep computing
    // beyond f64 (the mean of layernorm). Meaningful for finite sums only.
    DoubleDouble pair() const { return two_sum(sum_, compensation_); }

    // sum |term| in plain f64 arithmetic: relative error at most
    // gamma(n-1, 2^-53), which is all a magnitude term needs.
    double magnitude() const { return magnitude_; }

private:
    double sum_ = -0.0;  // -0 is the identity of IEEE addition: an all -0 sum stays -0
    double compensation_ = 0.0;
    double magnitude_ = 0.0;
};

// Dot2: each product split exactly into its rounded value and its error,
// summed as above. pair() is within gamma(n, u)^2 * sum |a_i b_i| of the
// exact dot product; magnitude() is sum |a_i b_i| with each product rounded
// (relative error at most gamma(n, 2^-53)).
class CompensatedDot {
public:
    void add_product(double a, double b) {
        const DoubleDouble p = two_product(a, b);
        sum_.add_with_error(p.hi, p.lo);
    }

    double value() const { return sum_.value(); }
    DoubleDouble pair() const { return sum_.pair(); }
    double magnitude() const { return sum_.magnitude(); }

private:
    CompensatedSum sum_;
};

}  // namespace kcs::ref
