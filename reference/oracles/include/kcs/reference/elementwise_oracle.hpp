// Oracles of the elementwise operator: add, mul, maximum and mul_add, each
// the IEEE 754 operation in the output format (f32, f16 or bf16).
//
// Operands must be values of `format` (NaN and infinities allowed);
// otherwise std::invalid_argument. Results are exact: the exact real result
// rounded once to nearest even in `format` (overflow to +-inf, subnormals
// kept), returned as the double holding that value.
//
// Why f64 arithmetic gives the single rounding:
//  - mul: a product of two values with at most 24 significant bits has at
//    most 48, exact in f64; only the final rounding remains.
//  - add: RN_p(RN_53(a + b)) == RN_p(a + b) for p-bit operands when
//    53 >= 2p + 2 (Figueroa, "When is double rounding innocuous?", SIGNUM
//    Newsletter 30(3), 1995); p <= 24 for every format here.
//  - mul_add, fused: a*b is exact, a*b + c is split exactly by TwoSum into
//    hi + lo and rounded to odd in f64 before the final rounding; rounding to
//    odd with at least p + 2 bits makes the second rounding correct (Boldo
//    and Melquiond, "Emulation of FMA and correctly rounded sums: proved
//    algorithms using rounding to odd", IEEE Trans. Computers 57(4), 2008).
//    A plain f64 fma followed by RN_p could round twice.
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {

double add_oracle(double a, double b, Format format);
double mul_oracle(double a, double b, Format format);

// IEEE 754-2019 maximum: a quiet NaN if either operand is NaN (unlike C
// fmax), otherwise the larger operand with -0 below +0. Exact in every format.
double maximum_oracle(double a, double b);

// mul_add = a * b + c. unfused = round(round(a * b) + c), the operator's
// definition; fused = round(a * b + c), also accepted under fp_contract: on.
struct MulAddResult {
    double unfused = 0.0;
    double fused = 0.0;
};
MulAddResult mul_add_oracle(double a, double b, double c, Format format);

enum class ElementwiseFunction { add, mul, maximum, mul_add };

struct ElementwiseResult {
    std::vector<double> value;  // the definition (for mul_add: unfused)
    std::vector<double> fused;  // mul_add only: the fused values; empty otherwise
};

// Element by element over operands of equal length; c is read by mul_add
// only (pass an empty span otherwise). Throws std::invalid_argument on a
// length mismatch or an operand that is not a value of `format`.
ElementwiseResult elementwise_oracle(ElementwiseFunction function, std::span<const double> a,
                                     std::span<const double> b, std::span<const double> c,
                                     Format format);

}  // namespace kcs::ref
