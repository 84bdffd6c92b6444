#include "mpfr_reference.hpp"

#include <mpfr.h>

#include <stdexcept>

namespace kcs::ref::testing {
namespace {

constexpr mpfr_prec_t kReferencePrecision = 200;

class Number {
public:
    explicit Number(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
    ~Number() { mpfr_clear(value_); }
    Number(const Number&) = delete;
    Number& operator=(const Number&) = delete;
    mpfr_ptr get() { return value_; }

private:
    mpfr_t value_;
};

// f(x) at 200 bits, every step to nearest.
void evaluate(UnaryFunction function, mpfr_srcptr x, mpfr_ptr y) {
    switch (function) {
        case UnaryFunction::exp: mpfr_exp(y, x, MPFR_RNDN); return;
        case UnaryFunction::log: mpfr_log(y, x, MPFR_RNDN); return;
        case UnaryFunction::tanh: mpfr_tanh(y, x, MPFR_RNDN); return;
        case UnaryFunction::erf: mpfr_erf(y, x, MPFR_RNDN); return;
        case UnaryFunction::rsqrt: mpfr_rec_sqrt(y, x, MPFR_RNDN); return;
        case UnaryFunction::sigmoid: {  // 1 / (1 + e^-x)
            mpfr_neg(y, x, MPFR_RNDN);
            mpfr_exp(y, y, MPFR_RNDN);
            mpfr_add_ui(y, y, 1, MPFR_RNDN);
            mpfr_ui_div(y, 1, y, MPFR_RNDN);
            return;
        }
        case UnaryFunction::gelu: {  // x/2 * erfc(-x / sqrt 2)
            Number sqrt2(kReferencePrecision);
            mpfr_sqrt_ui(sqrt2.get(), 2, MPFR_RNDN);
            mpfr_div(y, x, sqrt2.get(), MPFR_RNDN);
            mpfr_neg(y, y, MPFR_RNDN);
            mpfr_erfc(y, y, MPFR_RNDN);
            mpfr_mul(y, y, x, MPFR_RNDN);
            mpfr_div_2ui(y, y, 1, MPFR_RNDN);
            return;
        }
    }
    throw std::logic_error("mpfr_reference: unknown function");
}

// The format as MPFR sees it: precision p, and exponents (MPFR's
// significands lie in [1/2, 1)) from emin = 3 - bias - p, the smallest
// subnormal 2^(2 - bias - p) = 0.5 * 2^emin, to emax = bias + 1.
struct EmulatedFormat {
    mpfr_prec_t precision;
    mpfr_exp_t emin;
    mpfr_exp_t emax;
};

EmulatedFormat emulated(Format format) {
    const FormatInfo& i = info(format);
    return {i.precision, 3 - i.exponent_bias - i.precision, i.exponent_bias + 1};
}

// RN of v in the format: round to p bits in MPFR's wide range, then
// check_range (overflow, underflow) and subnormalize in the format's range;
// both take the first rounding's ternary value, so nothing is rounded twice.
std::uint32_t round_to(Format format, mpfr_srcptr v) {
    const EmulatedFormat f = emulated(format);
    Number y(f.precision);
    int ternary = mpfr_set(y.get(), v, MPFR_RNDN);

    const mpfr_exp_t saved_emin = mpfr_get_emin();
    const mpfr_exp_t saved_emax = mpfr_get_emax();
    mpfr_set_emin(f.emin);
    mpfr_set_emax(f.emax);
    ternary = mpfr_check_range(y.get(), ternary, MPFR_RNDN);
    mpfr_subnormalize(y.get(), ternary, MPFR_RNDN);
    mpfr_set_emin(saved_emin);
    mpfr_set_emax(saved_emax);

    // y is now a value of the format (or +-0, +-inf): exact in double.
    return encode(format, mpfr_get_d(y.get(), MPFR_RNDN));
}

}  // namespace

std::uint32_t mpfr_reference_bits(UnaryFunction function, Format format, double x) {
    Number argument(53);
    mpfr_set_d(argument.get(), x, MPFR_RNDN);
    Number value(kReferencePrecision);
    evaluate(function, argument.get(), value.get());
    return round_to(format, value.get());
}

}  // namespace kcs::ref::testing
