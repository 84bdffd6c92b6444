// Why it terminates: the enclosure's width shrinks like 2^-precision
// relative, so it decides unless f(x) is itself a rounding boundary (a
// midpoint or the overflow threshold). The symbolic cases in
// special_values.cpp take the exact points (exp(0), log(1), sigmoid(0), the
// zeros of the odd functions); elsewhere exp, log, tanh, sigmoid of a
// nonzero dyadic argument are transcendental (Lindemann-Weierstrass),
// 1/sqrt(x) of a dyadic x is either a power of two or irrational, and erf
// and gelu are not known to take a dyadic value at any nonzero dyadic
// argument; 4096 bits are about 2^4000 times more than any known hard case
// of these formats needs. An undecided input would still be reported, never
// guessed.
#include "mpfr_decision.hpp"

#include <mpfr.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "mpfr_enclosure.hpp"
#include "mpfr_rounding.hpp"

namespace kcs::ref::unary_detail {
namespace {

constexpr mpfr_prec_t kFirstPrecision = 256;
constexpr mpfr_prec_t kLastPrecision = 4096;

// Two mpfr_t local to one decision, cleared on every exit.
class Enclosure {
public:
    explicit Enclosure(mpfr_prec_t precision) {
        mpfr_init2(lo_, precision);
        mpfr_init2(hi_, precision);
    }
    ~Enclosure() {
        mpfr_clear(lo_);
        mpfr_clear(hi_);
    }
    Enclosure(const Enclosure&) = delete;
    Enclosure& operator=(const Enclosure&) = delete;
    mpfr_ptr lo() { return lo_; }
    mpfr_ptr hi() { return hi_; }

private:
    mpfr_t lo_;
    mpfr_t hi_;
};

}  // namespace

std::uint32_t decide_with_mpfr(UnaryFunction function, Format format, double x) {
    for (mpfr_prec_t precision = kFirstPrecision; precision <= kLastPrecision; precision *= 2) {
        Enclosure enclosure(precision);
        enclose(function, x, enclosure.lo(), enclosure.hi());
        const std::uint32_t lo_bits = round_to_format(enclosure.lo(), format);
        if (lo_bits == round_to_format(enclosure.hi(), format)) return lo_bits;
    }
    char argument[32];
    std::snprintf(argument, sizeof argument, "%a", x);  // hexadecimal: exact
    throw std::runtime_error("kcs::ref: " + std::string(unary_function_name(function)) +
                             " undecided at 4096 bits for x = " + argument);
}

}  // namespace kcs::ref::unary_detail
