#include "kcs/reference/matmul_oracle.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>

#include "kcs/reference/compensated_sum.hpp"
#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {
namespace {

// Significand width and binary exponents of the finite nonzero values of an
// operand: enough to decide whether every product is exact in f64.
struct ValueSpread {
    bool any = false;
    int significant_bits = 0;         // widest significand
    int top_exponent = INT_MIN;       // floor(log2 |x|) of the largest
    int lowest_bit_exponent = INT_MAX;  // weight of the lowest set bit of the smallest
};

ValueSpread spread_of(std::span<const double> values) {
    ValueSpread spread;
    for (const double x : values) {
        if (x == 0.0 || !std::isfinite(x)) continue;
        int exponent = 0;
        const double fraction = std::frexp(std::fabs(x), &exponent);  // x = f * 2^e, f in [0.5, 1)
        const auto significand = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
        const int trailing = std::countr_zero(significand);
        spread.any = true;
        spread.significant_bits = std::max(spread.significant_bits, 53 - trailing);
        spread.top_exponent = std::max(spread.top_exponent, exponent - 1);
        spread.lowest_bit_exponent = std::min(spread.lowest_bit_exponent, exponent - 53 + trailing);
    }
    return spread;
}

// True when a*b is exact in f64 for every a of one operand and b of the
// other: at most 53 significant bits, no overflow (|ab| < 2^(ea+eb+2) <=
// 2^1024) and the lowest bit within the subnormal range.
bool products_are_exact(const ValueSpread& a, const ValueSpread& b) {
    if (!a.any || !b.any) return true;
    return a.significant_bits + b.significant_bits <= 53 &&
           a.top_exponent + b.top_exponent <= 1022 &&
           a.lowest_bit_exponent + b.lowest_bit_exponent >= -1074;
}

// Running Sum2 state of one output row, one entry per column: i-k-j order
// keeps B's rows and these arrays contiguous, so the loop vectorises.
struct RowAccumulators {
    std::vector<double> sum, compensation, magnitude;
    explicit RowAccumulators(std::size_t n) : sum(n), compensation(n), magnitude(n) {}
    void reset() {
        std::fill(sum.begin(), sum.end(), -0.0);
        std::fill(compensation.begin(), compensation.end(), 0.0);
        std::fill(magnitude.begin(), magnitude.end(), 0.0);
    }
};

// The hot loop is also compiled for AVX2 (4 doubles per vector instead of
// SSE2's 2), picked at load time where the CPU has it. AVX2 brings no fma,
// so the arithmetic, and the result, are the same bit for bit.
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define KCS_WIDE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define KCS_WIDE_VECTOR_CLONES
#endif

// Adds a * b_row[j] to column j, the product being exact in f64.
KCS_WIDE_VECTOR_CLONES
void add_exact_products(double a, const double* __restrict b_row, std::size_t n,
                        double* __restrict sum, double* __restrict compensation,
                        double* __restrict magnitude) {
    for (std::size_t j = 0; j < n; ++j) {
        const double product = a * b_row[j];
        const double total = sum[j] + product;  // TwoSum, written out for the vectoriser
        const double product_virtual = total - sum[j];
        const double sum_virtual = total - product_virtual;
        compensation[j] += (sum[j] - sum_virtual) + (product - product_virtual);
        sum[j] = total;
        magnitude[j] += std::fabs(product);
    }
}

// Adds a * b_row[j] to column j, recovering the product's rounding error.
void add_rounded_products(double a, const double* b_row, std::size_t n, double* sum,
                          double* compensation, double* magnitude) {
    for (std::size_t j = 0; j < n; ++j) {
        const DoubleDouble product = two_product(a, b_row[j]);
        const DoubleDouble total = two_sum(sum[j], product.hi);
        compensation[j] += product.lo + total.lo;
        sum[j] = total.hi;
        magnitude[j] += std::fabs(product.hi);
    }
}

}  // namespace

MatmulResult matmul_oracle(std::span<const double> a, std::span<const double> b,
                           const MatmulShape& shape) {
    constexpr std::string_view op = "matmul oracle";
    const std::size_t a_matrix = element_count(op, shape.m, shape.k);
    const std::size_t b_matrix = element_count(op, shape.k, shape.n);
    const std::size_t c_matrix = element_count(op, shape.m, shape.n);
    require_size(op, "A", a.size(), element_count(op, shape.batch, a_matrix));
    require_size(op, "B", b.size(), element_count(op, shape.batch, b_matrix));
    const std::size_t outputs = element_count(op, shape.batch, c_matrix);

    MatmulResult result{std::vector<double>(outputs, 0.0), std::vector<double>(outputs, 0.0)};
    if (shape.k == 0 || outputs == 0) return result;  // empty sums are +0

    const bool exact = products_are_exact(spread_of(a), spread_of(b));
    RowAccumulators row(shape.n);
    for (std::size_t batch = 0; batch < shape.batch; ++batch) {
        const double* a_batch = a.data() + batch * a_matrix;
        const double* b_batch = b.data() + batch * b_matrix;
        for (std::size_t i = 0; i < shape.m; ++i) {
            row.reset();
            for (std::size_t k = 0; k < shape.k; ++k) {
                const double a_ik = a_batch[i * shape.k + k];
                const double* b_row = b_batch + k * shape.n;
                if (exact) {
                    add_exact_products(a_ik, b_row, shape.n, row.sum.data(),
                                       row.compensation.data(), row.magnitude.data());
                } else {
                    add_rounded_products(a_ik, b_row, shape.n, row.sum.data(),
                                         row.compensation.data(), row.magnitude.data());
                }
            }
            const std::size_t out = batch * c_matrix + i * shape.n;
            for (std::size_t j = 0; j < shape.n; ++j) {
                const double sum = row.sum[j];
                const double compensation = row.compensation[j];
                // As CompensatedSum::value: keeps -0 and IEEE non-finite results.
                result.value[out + j] =
                    (compensation == 0.0 || !std::isfinite(sum)) ? sum : sum + compensation;
                result.magnitude[out + j] = row.magnitude[j];
            }
        }
    }
    return result;
}

}  // namespace kcs::ref
