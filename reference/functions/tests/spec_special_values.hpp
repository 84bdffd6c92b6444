// unary.yaml's special values, transcribed for the tests independently of
// the library: "NaN gives NaN; exp(-inf) = +0, exp(+inf) = +inf; log(+-0) =
// -inf, log(x < 0) = NaN, log(+inf) = +inf; tanh(+-inf) = erf(+-inf) = +-1;
// sigmoid(-inf) = +0, sigmoid(+inf) = 1; gelu(-inf) = -0, gelu(+inf) = +inf;
// rsqrt(+-0) = +-inf, rsqrt(x < 0) = NaN, rsqrt(+inf) = +0. Odd functions
// keep the sign of zero (tanh, erf and gelu of -0 are -0)." Zeros of the
// other functions: exp(+-0) = 1 and sigmoid(+-0) = 1/2 (exact points).
#pragma once

#include <cmath>
#include <optional>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::testing {

// The value unary.yaml fixes for x (NaN where it says NaN), or nullopt when
// x is a finite nonzero argument inside f's domain.
inline std::optional<double> spec_special_value(UnaryFunction function, double x) {
    if (std::isnan(x)) return NAN;
    const bool is_zero = x == 0.0;
    const bool is_infinite = std::isinf(x);
    switch (function) {
        case UnaryFunction::exp:
            if (is_infinite) return x > 0 ? INFINITY : 0.0;
            if (is_zero) return 1.0;
            return std::nullopt;
        case UnaryFunction::log:
            if (is_zero) return -INFINITY;
            if (x < 0) return NAN;
            if (is_infinite) return INFINITY;
            return std::nullopt;
        case UnaryFunction::tanh:
        case UnaryFunction::erf:
            if (is_infinite) return x > 0 ? 1.0 : -1.0;
            if (is_zero) return x;  // the same zero
            return std::nullopt;
        case UnaryFunction::gelu:
            if (is_infinite) return x > 0 ? INFINITY : -0.0;
            if (is_zero) return x;
            return std::nullopt;
        case UnaryFunction::sigmoid:
            if (is_infinite) return x > 0 ? 1.0 : 0.0;
            if (is_zero) return 0.5;
            return std::nullopt;
        case UnaryFunction::rsqrt:
            if (is_zero) return std::signbit(x) ? -INFINITY : INFINITY;
            if (x < 0) return NAN;
            if (is_infinite) return 0.0;
            return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace kcs::ref::testing
