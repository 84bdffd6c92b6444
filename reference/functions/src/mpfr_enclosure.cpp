// Every MPFR function is correctly rounded in the direction asked, so its
// RNDD/RNDU results bound the exact value; the two compositions (sigmoid,
// gelu) bound it by the monotonicity of each step, each rounded outward.
// MPFR's exponent range (about 2^+-2^30 by default) is far beyond the
// formats'; a result beyond it saturates outward (infinity up, the largest
// number down) or to zero with the right sign, still a valid bound.
#include "mpfr_enclosure.hpp"

#include <stdexcept>

namespace kcs::ref::unary_detail {
namespace {

// RAII for an mpfr_t local to one evaluation (no shared state).
class MpfrNumber {
public:
    explicit MpfrNumber(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
    ~MpfrNumber() { mpfr_clear(value_); }
    MpfrNumber(const MpfrNumber&) = delete;
    MpfrNumber& operator=(const MpfrNumber&) = delete;
    mpfr_ptr get() { return value_; }

private:
    mpfr_t value_;
};

using MpfrFunction = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);

// One correctly rounded MPFR function at an exact point: rounded down and
// up, it brackets the exact value whatever f's monotonicity.
void enclose_direct(MpfrFunction f, mpfr_srcptr x, mpfr_ptr lo, mpfr_ptr hi) {
    f(lo, x, MPFR_RNDD);
    f(hi, x, MPFR_RNDU);
}

// sigmoid(x) = 1/(1 + e^-x). A larger e^-x gives a smaller sigmoid, so the
// lower bound takes e^-x rounded up, the sum rounded up, the reciprocal
// rounded down; the upper bound the reverse. -x is exact.
void enclose_sigmoid(mpfr_srcptr x, mpfr_ptr lo, mpfr_ptr hi) {
    MpfrNumber minus_x(mpfr_get_prec(x));
    mpfr_neg(minus_x.get(), x, MPFR_RNDN);
    MpfrNumber denominator(mpfr_get_prec(lo));

    mpfr_exp(denominator.get(), minus_x.get(), MPFR_RNDU);
    mpfr_add_ui(denominator.get(), denominator.get(), 1, MPFR_RNDU);
    mpfr_ui_div(lo, 1, denominator.get(), MPFR_RNDD);

    mpfr_exp(denominator.get(), minus_x.get(), MPFR_RNDD);
    mpfr_add_ui(denominator.get(), denominator.get(), 1, MPFR_RNDD);
    mpfr_ui_div(hi, 1, denominator.get(), MPFR_RNDU);
}

// gelu(x) = x * Phi(x) with Phi(x) = erfc(-x/sqrt 2)/2, the erfc form for
// every x: no cancellation for x < 0, and for x > 0 erfc(-t) = 1 + erf(t)
// in (1, 2]. Phi increases with t = x/sqrt 2: enclose t, then Phi from
// erfc (decreasing) of -t, then multiply by x, whose sign decides which Phi
// bound gives which gelu bound. Halving is exact.
void enclose_gelu(mpfr_srcptr x, mpfr_ptr lo, mpfr_ptr hi) {
    const mpfr_prec_t precision = mpfr_get_prec(lo);
    MpfrNumber inv_sqrt2_lo(precision), inv_sqrt2_hi(precision);
    mpfr_set_ui(inv_sqrt2_lo.get(), 2, MPFR_RNDN);
    mpfr_rec_sqrt(inv_sqrt2_lo.get(), inv_sqrt2_lo.get(), MPFR_RNDD);
    mpfr_set_ui(inv_sqrt2_hi.get(), 2, MPFR_RNDN);
    mpfr_rec_sqrt(inv_sqrt2_hi.get(), inv_sqrt2_hi.get(), MPFR_RNDU);

    const bool negative = mpfr_sgn(x) < 0;
    // t = x / sqrt 2: for x > 0 the small factor gives the small t; for x < 0
    // the large factor does.
    MpfrNumber t_lo(precision), t_hi(precision);
    mpfr_mul(t_lo.get(), x, negative ? inv_sqrt2_hi.get() : inv_sqrt2_lo.get(), MPFR_RNDD);
    mpfr_mul(t_hi.get(), x, negative ? inv_sqrt2_lo.get() : inv_sqrt2_hi.get(), MPFR_RNDU);

    // Phi bounds: 2*Phi = erfc(-t), increasing in t.
    MpfrNumber phi_lo(precision), phi_hi(precision);
    mpfr_neg(t_lo.get(), t_lo.get(), MPFR_RNDN);
    mpfr_erfc(phi_lo.get(), t_lo.get(), MPFR_RNDD);
    mpfr_div_2ui(phi_lo.get(), phi_lo.get(), 1, MPFR_RNDD);
    mpfr_neg(t_hi.get(), t_hi.get(), MPFR_RNDN);
    mpfr_erfc(phi_hi.get(), t_hi.get(), MPFR_RNDU);
    mpfr_div_2ui(phi_hi.get(), phi_hi.get(), 1, MPFR_RNDU);

    // x * Phi with Phi > 0: for x > 0 the bounds keep their roles; for x < 0
    // the larger Phi gives the lower (more negative) gelu.
    mpfr_mul(lo, x, negative ? phi_hi.get() : phi_lo.get(), MPFR_RNDD);
    mpfr_mul(hi, x, negative ? phi_lo.get() : phi_hi.get(), MPFR_RNDU);
}

}  // namespace

void enclose(UnaryFunction function, double x_value, mpfr_ptr lo, mpfr_ptr hi) {
    MpfrNumber x(53);
    mpfr_set_d(x.get(), x_value, MPFR_RNDN);  // exact: x is a double
    switch (function) {
        case UnaryFunction::exp: return enclose_direct(mpfr_exp, x.get(), lo, hi);
        case UnaryFunction::log: return enclose_direct(mpfr_log, x.get(), lo, hi);
        case UnaryFunction::tanh: return enclose_direct(mpfr_tanh, x.get(), lo, hi);
        case UnaryFunction::erf: return enclose_direct(mpfr_erf, x.get(), lo, hi);
        case UnaryFunction::rsqrt: return enclose_direct(mpfr_rec_sqrt, x.get(), lo, hi);
        case UnaryFunction::sigmoid: return enclose_sigmoid(x.get(), lo, hi);
        case UnaryFunction::gelu: return enclose_gelu(x.get(), lo, hi);
    }
    throw std::logic_error("enclose: unknown unary function");
}

}  // namespace kcs::ref::unary_detail
