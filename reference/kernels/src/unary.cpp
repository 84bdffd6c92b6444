// unary: y[i] = f(x[i]) for exp, log, tanh, erf, gelu, sigmoid and rsqrt
// (spec/v1/operators/unary.yaml), and the two C-CMP-01 violations fast_exp
// and approx_tanh.
//
// Every function is evaluated in f32 or wider and rounded once, to nearest
// even, by store(): f16 and bf16 arguments are exact in f32, and a result
// within C-CMP-01's f32 bound rounds to within one ulp of f16 or bf16.
// Where f32 evaluation would not meet the f32 bound (gelu, rsqrt) the
// function is evaluated in double.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <optional>

#include "element_access.hpp"
#include "kcs/reference/formats.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"

namespace kcs::kernels::detail {

namespace {

enum class Function { exp, log, tanh, erf, gelu, sigmoid, rsqrt };

std::optional<Function> parse_function(std::string_view name) {
    if (name == "exp") return Function::exp;
    if (name == "log") return Function::log;
    if (name == "tanh") return Function::tanh;
    if (name == "erf") return Function::erf;
    if (name == "gelu") return Function::gelu;
    if (name == "sigmoid") return Function::sigmoid;
    if (name == "rsqrt") return Function::rsqrt;
    return std::nullopt;
}

// 1 / (1 + e^-x) in the stable form: for x < 0 it is e^x / (1 + e^x), so
// e^-x never overflows and exp's subnormal results come through (the naive
// form gives 1 / (1 + inf) = 0 below x = -88.7). Relative error about
// 2 ulp, within the bound of 8.
float sigmoid(float x) {
    if (x >= 0.0f) return 1.0f / (1.0f + std::exp(-x));
    const float e = std::exp(x);  // NaN takes this branch and stays NaN
    return e / (1.0f + e);
}

// x/2 * (1 + erf(x/sqrt 2)) written as x/2 * erfc(-x/sqrt 2), in double.
// erfc avoids the cancellation of 1 + erf for x < 0, and the double
// argument keeps erfc's condition number (about 2t^2) from amplifying the
// rounding of x/sqrt 2, as an f32 argument would up to 200-fold.
float gelu(float x) {
    if (std::isinf(x)) return x > 0.0f ? x : -0.0f;  // the limits, not inf * 0
    const double v = x;
    // Below 2^-100, gelu(x) = x/2 + c with 0 < c ~ 0.4 x^2 far below an ulp
    // of double: x/2 may lie halfway between two f32 subnormals, and c
    // decides the rounding. One double ulp toward +inf stands in for it.
    if (v != 0.0 && std::fabs(v) < 0x1p-100)
        return static_cast<float>(std::nextafter(0.5 * v, std::numeric_limits<double>::infinity()));
    return static_cast<float>(0.5 * v * std::erfc(-v * (1.0 / std::numbers::sqrt2)));
}

// 1 / sqrt(x) in double, rounded once: 1.0f / sqrtf(x) rounds twice, which
// can take it to the f32 bound of 2 ulp. rsqrt(+-0) = +-inf follows from
// sqrt(-0) = -0.
float rsqrt(float x) { return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x))); }

float conforming(Function function, float x) {
    switch (function) {
        case Function::exp: return std::exp(x);
        case Function::log: return std::log(x);
        case Function::tanh: return std::tanh(x);
        case Function::erf: return std::erf(x);
        case Function::gelu: return gelu(x);
        case Function::sigmoid: return sigmoid(x);
        case Function::rsqrt: return rsqrt(x);
    }
    return std::numeric_limits<float>::quiet_NaN();
}

// 2^n built the bit-trick way, by writing n + bias into the exponent field
// of the output dtype (f16: 5 bits, bias 15; f32 and bf16: 8 bits, bias
// 127). Only the normal exponents have an encoding: below them the trick
// yields 0, and one above the largest lands on the all-ones field, which
// encodes infinity.
float power_of_two_by_bits(int n, Dtype out) {
    const int bias = out == Dtype::f16 ? 15 : 127;
    const int field = n + bias;
    if (field <= 0) return 0.0f;
    if (out == Dtype::f16) {
        const int all_ones = 31;
        return ref::f16_to_f32(static_cast<std::uint16_t>(std::min(field, all_ones) << 10));
    }
    const int all_ones = 255;
    return std::bit_cast<float>(static_cast<std::uint32_t>(std::min(field, all_ones)) << 23);
}

// Calibration violation fast_exp (C-CMP-01, subdomain-concentration):
// exp(x) = 2^n * e^r with n = round(x / ln 2), r = x - n ln 2 and e^r from
// a polynomial, all accurate to about half an ulp, so the core of the
// domain meets the bound; but 2^n comes from power_of_two_by_bits, and the
// result is never subnormal. So exp is zero wherever its correctly rounded
// value is subnormal, and infinite from x = (bias + 1/2) ln 2 on (88.38 for
// f32 and bf16, 10.74 for f16), where exp is still finite in the top half
// of the last binade.
float fast_exp(float x, Dtype out) {
    if (std::isnan(x)) return x + x;
    const int bias = out == Dtype::f16 ? 15 : 127;
    const double t = std::nearbyint(static_cast<double>(x) * std::numbers::log2e);
    if (t < 1 - bias) return 0.0f;
    if (t > bias + 1) return std::numeric_limits<float>::infinity();
    const int n = static_cast<int>(t);
    const double r = static_cast<double>(x) - t * std::numbers::ln2;  // |r| <= ln2/2
    // Taylor series of e^r to degree 10: truncation below 2^-40 relative.
    double p = 1.0;
    for (int k = 10; k >= 1; --k) p = 1.0 + p * r / k;
    const float result = static_cast<float>(p) * power_of_two_by_bits(n, out);
    const float min_normal = out == Dtype::f16 ? 0x1p-14f : std::numeric_limits<float>::min();
    return result < min_normal ? 0.0f : result;  // no subnormal results
}

// Calibration violation approx_tanh (C-CMP-01, subdomain-concentration):
// tanh(x) = 1 - 2/(e^(2x) + 1), evaluated in the format next wider than the
// output (double for f32, f32 for f16 and bf16), as fast-math rewrites do.
// 1 - q cancels as q approaches 1: the absolute error stays near the
// evaluation format's unit roundoff while tanh(x) ~ x shrinks, so the
// result is accurate for |x| >= 2^-5 but misses the bound below about
// 2^-33 (f32) or 2^-18 (bf16), and is 0 once e^(2x) rounds to 1.
// An f16 output's smallest values are too large for f32's cancellation to
// show: the f16 results stay within 1 ulp.
float approx_tanh(float x, Dtype out) {
    if (out == Dtype::f32) {
        const double v = x;
        return static_cast<float>(1.0 - 2.0 / (std::exp(2.0 * v) + 1.0));
    }
    return 1.0f - 2.0f / (std::exp(2.0f * x) + 1.0f);
}

// Calibration violation tail_bf16_exp (C-CMP-01, uniform-excess): on the
// scalar tail of a call, the n mod 8 elements past its last whole vector,
// exp(x) rounded to bf16's 8 significand bits (up to 2^15 ulp of f32, 4 of
// f16, in every binade); the correctly rounded exp elsewhere: a library
// whose vector body and scalar remainder loop use different
// approximations. Calls whose length is a multiple of 8 never show it.
float bf16_exp(float x) { return ref::bf16_to_f32(ref::f32_to_bf16(conforming(Function::exp, x))); }

// Calibration violation biased_log (C-CMP-01, uniform-excess): log(x)
// scaled by 1 + 2^-15 and rounded to f32, whatever the output dtype, so
// the error is 128 to 256 ulp of f32 in every binade of the core, and an f16
// or bf16 output is the store's correct rounding of that f32 value. Its
// narrow stores round correctly: C-PRC-04 must not blame them (SPEC.md
// section 5, "Primary cause").
float biased_log(float x) {
    return static_cast<float>(static_cast<double>(conforming(Function::log, x)) * (1.0 + 0x1p-15));
}

float evaluate(Function function, float x, Dtype out, Violation violation) {
    if (function == Function::exp && violation == Violation::fast_exp) return fast_exp(x, out);
    if (function == Function::log && violation == Violation::biased_log) return biased_log(x);
    if (function == Function::tanh && violation == Violation::approx_tanh) return approx_tanh(x, out);
    return conforming(function, x);
}

Result check(const OpCall& call, const Settings&) {
    if (call.function.empty()) return invalid("unary needs a function (exp, log, tanh, erf, gelu, sigmoid, rsqrt)");
    if (!parse_function(call.function)) return unsupported("unary has no function '" + call.function + "'");
    if (!call.attributes.empty())
        return unsupported("unary takes no attributes; got '" + call.attributes.begin()->first + "'");
    if (call.inputs.size() != 1 || call.outputs.size() != 1)
        return invalid("unary takes one input (x) and one output (y)");
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    if (!is_float(x.dtype) || y.dtype != x.dtype)
        return unsupported("unary computes f32 -> f32, f16 -> f16 and bf16 -> bf16; got " +
                           std::string(name_of(x.dtype)) + " -> " + std::string(name_of(y.dtype)));
    if (x.shape != y.shape) return invalid("unary: y must have the shape of x");
    return ok();
}

Result compute(const OpCall& call, const Settings& settings) {
    const Function function = *parse_function(call.function);
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const std::int64_t n = y.elements();
    constexpr std::int64_t block = 16384;  // elements per task of the thread pool
    // tail_bf16_exp: the elements past the last whole vector of 8 take bf16_exp.
    constexpr std::int64_t kVectorWidth = 8;
    const bool tail_bf16_exp = settings.violation == Violation::tail_bf16_exp && function == Function::exp;
    const std::int64_t tail = tail_bf16_exp ? n - n % kVectorWidth : n;
    for_each_row((n + block - 1) / block, settings.threads, [&](std::int64_t b) {
        for (std::int64_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
            const float v = load(x, i, settings);
            store(y, i, i >= tail ? bf16_exp(v) : evaluate(function, v, y.dtype, settings.violation), settings);
        }
    });
    return ok();
}

}  // namespace

const OperatorKernel kUnary{"unary", check, compute};

}  // namespace kcs::kernels::detail
