// A 256-bit MPFR number for the tests' reference values, and the exact
// rounding of an MPFR value to a format, written independently of
// kcs_numerics so that the two check each other.
#pragma once

#include <mpfr.h>

#include <utility>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::test {

class BigFloat {
public:
    static constexpr mpfr_prec_t kPrecision = 256;

    BigFloat(double value = 0.0) {  // NOLINT: implicit from double reads like arithmetic
        mpfr_init2(value_, kPrecision);
        mpfr_set_d(value_, value, MPFR_RNDN);
    }
    BigFloat(const BigFloat& other) {
        mpfr_init2(value_, kPrecision);
        mpfr_set(value_, other.value_, MPFR_RNDN);
    }
    BigFloat& operator=(const BigFloat& other) {
        mpfr_set(value_, other.value_, MPFR_RNDN);
        return *this;
    }
    ~BigFloat() { mpfr_clear(value_); }

    double to_double() const { return mpfr_get_d(value_, MPFR_RNDN); }
    mpfr_srcptr get() const { return value_; }
    mpfr_ptr get() { return value_; }

    BigFloat& operator+=(const BigFloat& x) { mpfr_add(value_, value_, x.value_, MPFR_RNDN); return *this; }
    BigFloat& operator-=(const BigFloat& x) { mpfr_sub(value_, value_, x.value_, MPFR_RNDN); return *this; }
    BigFloat& operator*=(const BigFloat& x) { mpfr_mul(value_, value_, x.value_, MPFR_RNDN); return *this; }
    BigFloat& operator/=(const BigFloat& x) { mpfr_div(value_, value_, x.value_, MPFR_RNDN); return *this; }
    friend BigFloat operator+(BigFloat a, const BigFloat& b) { return a += b; }
    friend BigFloat operator-(BigFloat a, const BigFloat& b) { return a -= b; }
    friend BigFloat operator*(BigFloat a, const BigFloat& b) { return a *= b; }
    friend BigFloat operator/(BigFloat a, const BigFloat& b) { return a /= b; }
    friend bool operator<(const BigFloat& a, const BigFloat& b) { return mpfr_less_p(a.value_, b.value_); }

    friend BigFloat abs(BigFloat x) { mpfr_abs(x.value_, x.value_, MPFR_RNDN); return x; }
    friend BigFloat exp(BigFloat x) { mpfr_exp(x.value_, x.value_, MPFR_RNDN); return x; }
    friend BigFloat sqrt(BigFloat x) { mpfr_sqrt(x.value_, x.value_, MPFR_RNDN); return x; }

private:
    mpfr_t value_;
};

// |oracle - reference|, evaluated at 256 bits and rounded up to a double.
double distance(double oracle, const BigFloat& reference);

// RN_format(x) for an x that MPFR holds exactly: ties to even, subnormals
// of the format, overflow to +-inf, zeros keep their sign, NaN stays NaN.
double round_exact_to_format(mpfr_srcptr x, Format format);

}  // namespace kcs::ref::test
