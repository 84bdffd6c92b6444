// Oracle of matmul: C[b, m, n] = sum over k of A[b, m, k] * B[b, k, n].
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace kcs::ref {

struct MatmulShape {
    std::size_t batch = 1;  // B; 1 for rank-2 operands
    std::size_t m = 0;
    std::size_t k = 0;
    std::size_t n = 0;
};

struct MatmulResult {
    // C*[b, m, n], row-major [batch, m, n]: the exact sum of products,
    // rounded to f64 as Sum2/Dot2 give it (bound below).
    std::vector<double> value;
    // M[b, m, n] = sum over k of |A[b, m, k] * B[b, k, n]|, the magnitude
    // term of C-PRC-01 and C-ORD-01; relative error at most gamma(K, 2^-53).
    std::vector<double> magnitude;
};

// A is [batch, m, k] and B [batch, k, n], row-major, holding the exact input
// values. Throws std::invalid_argument when a size does not match the shape.
//
// Error bound, u = 2^-53, K = shape.k, for every element whose exact value
// and partial sums are finite in f64:
//     |value - C*| <= u |C*| + gamma(K, u)^2 * M
// (Dot2, see compensated_sum.hpp; with K <= 2^20 the second term is below
// 1.5e-20 M). When every product of the operands is exact in f64 (both
// operands f32 values, which covers f16 and bf16) the products are formed
// directly and summed by Sum2, the fast path; otherwise the products' errors
// are recovered with fma (TwoProduct) and summed as well. An empty K gives
// +0. IEEE special values follow a plain f64 evaluation: 0 * inf and
// inf - inf are NaN; an all -0 sum of products is -0.
MatmulResult matmul_oracle(std::span<const double> a, std::span<const double> b,
                           const MatmulShape& shape);

}  // namespace kcs::ref
