// exp(x - m) for the softmax of softmax and attention: the difference is
// taken exactly (or as a double-double), so a large gap or a large score
// costs no accuracy.
#pragma once

#include <cmath>

#include "kcs/reference/compensated_sum.hpp"

namespace kcs::ref::detail {

// exp(hi + lo) for hi + lo <= 0 with |lo| <= ulp(hi)/2; hi = -inf gives +0.
// With u = 2^-53 the result errs by at most 3u relative, plus 2^-1074
// absolute where it is subnormal (two half-ulp roundings there): glibc's
// exp is within 0.52 ulp (2u relative) and exp(hi + lo) = exp(hi) * (1 + lo)
// up to lo^2 < 2^-80 for |hi| <= 746, rounded once more.
inline double exp_of_sum(const DoubleDouble& x) {
    if (x.hi == -HUGE_VAL) return 0.0;
    const double e = std::exp(x.hi);
    return e + e * x.lo;
}

// exp(x - m) for x <= m with m finite; x = -inf (a masked entry) gives +0.
inline double exp_of_difference(double x, double m) {
    if (x == -HUGE_VAL) return 0.0;
    return exp_of_sum(two_sum(x, -m));  // x - m < -2^1024 overflows to -inf: exp is 0 anyway
}

// a - b for double-doubles, renormalised; the two roundings of the low
// parts cost at most 2u^2 max(|a|, |b|).
inline DoubleDouble subtract(const DoubleDouble& a, const DoubleDouble& b) {
    const DoubleDouble high = two_sum(a.hi, -b.hi);
    return two_sum(high.hi, high.lo + (a.lo - b.lo));
}

}  // namespace kcs::ref::detail
