// The stability_bound tolerance model (spec/SPEC.md section 3), bound to the
// catalog's parameters (c, sum_c).
//
// With L the row length, y* the exact value and M the magnitude term the
// class's oracle defines for the element:
//   (a) where y* is finite, y is finite;
//   (b) |y - y*| <= c * gamma(L, u(acc)) * M + u(out) * |y*|;
//   (c) for rows that are probability distributions (softmax), with S the
//       exact sum of the row's outputs: |S - 1| <= sum_c * (gamma(L, u(acc)) + u(out)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kcs/spec/catalog.hpp"

namespace kcs::suites::tolerance {

struct StabilityBoundResult {
    std::size_t elements = 0;  // judged: those whose y* is finite

    // (a)
    std::size_t nonfinite_where_finite = 0;
    std::size_t first_nonfinite = 0;  // element index, meaningful when the count is > 0
    std::size_t nan_where_finite = 0;  // of those, NaN

    // (b), over the elements whose y* is finite; a non-finite y counts here too (ratio +inf).
    std::size_t elements_over_bound = 0;
    double worst_ratio = 0;  // |y - y*| / bound
    std::size_t worst_element = 0;
    double worst_error = 0;
    double worst_bound = 0;

    // (c), over rows whose outputs are all finite (a row with a non-finite
    // output has already failed (a) and has no sum).
    bool rows_checked = false;
    std::size_t rows_over_sum_bound = 0;
    double worst_row_deviation = 0;  // |S - 1|, the largest over the rows
    std::size_t worst_row = 0;
    double row_sum_bound = 0;

    bool pass() const { return nonfinite_where_finite == 0 && elements_over_bound == 0 && rows_over_sum_bound == 0; }
};

// Whether check (c) applies: rows are probability distributions (softmax).
enum class RowSums { check, skip };

struct StabilityBound {
    double c = 0;
    double sum_c = 0;

    // Throws std::invalid_argument unless `contract` names stability_bound with both parameters.
    static StabilityBound from_catalog(const spec::ContractClass& contract);

    // c * gamma(L, u_acc) * M + u_out * |y*|.
    double element_bound(std::int64_t L, double u_acc, double u_out, double magnitude, double exact) const;
    // sum_c * (gamma(L, u_acc) + u_out).
    double row_sum_bound(std::int64_t L, double u_acc, double u_out) const;

    // got, exact and magnitude are [rows, L] row-major.
    StabilityBoundResult check(std::span<const double> got, std::span<const double> exact,
                               std::span<const double> magnitude, std::int64_t L, double u_acc, double u_out,
                               RowSums row_sums) const;
};

// S - 1 for finite values of at most 24 significant bits (f32, f16, bf16
// outputs), with S summed exactly; the difference is converted to f64
// within a few units of 2^-53 relative. Throws std::invalid_argument for a
// non-finite value or one with more significant bits.
double exact_sum_minus_one(std::span<const double> values);

}  // namespace kcs::suites::tolerance
