#include "big_float.hpp"

#include <cmath>
#include <limits>

namespace kcs::ref::test {

double distance(double oracle, const BigFloat& reference) {
    BigFloat difference = BigFloat(oracle) - reference;
    return mpfr_get_d(abs(difference).get(), MPFR_RNDU);
}

double round_exact_to_format(mpfr_srcptr x, Format format) {
    if (mpfr_nan_p(x)) return std::numeric_limits<double>::quiet_NaN();
    if (mpfr_inf_p(x) || mpfr_zero_p(x)) return mpfr_get_d(x, MPFR_RNDN);
    const FormatInfo& f = info(format);
    const mpfr_prec_t wide = mpfr_get_prec(x) + 64;
    mpfr_t rounded;
    double value = 0.0;
    if (std::fabs(mpfr_get_d(x, MPFR_RNDZ)) >= f.min_normal) {
        mpfr_init2(rounded, f.precision);  // normal: round the significand
        mpfr_set(rounded, x, MPFR_RNDN);
        value = mpfr_get_d(rounded, MPFR_RNDN);
        if (std::fabs(value) > f.max_finite) value = std::copysign(HUGE_VAL, value);
    } else {
        // Subnormal range: a fixed-point grid of step min_subnormal.
        const int step_exponent = std::ilogb(f.min_subnormal);
        mpfr_init2(rounded, wide);
        mpfr_div_2si(rounded, x, step_exponent, MPFR_RNDN);  // exact
        mpfr_rint(rounded, rounded, MPFR_RNDN);               // ties to even
        mpfr_mul_2si(rounded, rounded, step_exponent, MPFR_RNDN);
        value = mpfr_get_d(rounded, MPFR_RNDN);
        if (value == 0.0) value = mpfr_signbit(x) ? -0.0 : 0.0;
    }
    mpfr_clear(rounded);
    return value;
}

}  // namespace kcs::ref::test
