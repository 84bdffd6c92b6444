// Why the interval test is enough: RN to a format is monotone (a <= b gives
// RN(a) <= RN(b), ties to even included) and symmetric (RN(-a) = -RN(a)).
// So if both ends of an interval [lo, hi] of magnitudes round to the same
// value, every magnitude inside it does, the exact |f(x)| included; the sign
// is then applied to that value, which keeps the sign of a zero result.
//
// The interval: with m the exact magnitude and a the double one,
// |a - m| <= r*m + t (r = kRelativeErrorBound, t = kAbsoluteErrorBound), so
// m >= (a - t)/(1 + r) > a - r*a - t and m <= (a + t)/(1 - r) < a + 2r*a + 2t.
// Widening to a -+ (2r*a + 2t) covers both; the two subtractions and
// additions in double are each rounded by at most 2^-53 relative, which the
// factor 2 on r (2^-40 against 2^-53) absorbs.
#include "rounding_decision.hpp"

#include <algorithm>
#include <cmath>

#include "format_constants.hpp"

namespace kcs::ref::unary_detail {

std::optional<std::uint32_t> decide_from_double(Format format, DoubleApproximation approximation) {
    const double a = approximation.magnitude;
    const FormatConstants c = constants_of(format);
    // No in-domain evaluation gives NaN; should one ever, MPFR decides
    // rather than a NaN being passed off as a decided result.
    if (std::isnan(a)) return std::nullopt;
    // An infinite magnitude (exp beyond x ~ 709.8) means an exact value
    // above 2^1023, where every format has long overflowed to infinity.
    if (std::isinf(a)) {
        return approximation.negative ? c.negative_infinity : c.positive_infinity;
    }
    const double width = 2.0 * kRelativeErrorBound * a + 2.0 * kAbsoluteErrorBound;
    // An exact magnitude is never negative: clamping keeps the interval's
    // low end a zero of the right sign instead of a negative value.
    const double lo = std::max(a - width, 0.0);
    const double hi = a + width;
    const std::uint32_t lo_bits = encode(format, lo);
    if (lo_bits != encode(format, hi)) return std::nullopt;
    return approximation.negative ? lo_bits | c.sign_mask : lo_bits;
}

}  // namespace kcs::ref::unary_detail
