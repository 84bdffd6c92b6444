// Error-bound toolkit: the tolerance models of SPEC.md section 3 that rest
// on unit roundoff, written as small functions that return values. Every
// check works in f64 on values the caller decoded; none keeps state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {

// gamma(n, u) = n*u / (1 - n*u) (Higham, eq. 3.8; SPEC.md section 1), the
// relative error bound of n successive roundings with unit roundoff u.
// Throws std::invalid_argument unless n >= 0, u >= 0 and n*u < 1, where the
// SPEC leaves gamma undefined. Evaluated in f64: its own rounding error is
// a few units of 2^-53 relative, far below the resolution of any bound.
double gamma(std::int64_t n, double u);

// Parameters of the dot_bound model, as the class's tolerance.params gives
// them (C-PRC-01: c 1.0, min_outputs 1000, mean_z 6.0, var_factor 0.667).
struct DotBoundParams {
    double c;
    std::size_t min_outputs;
    double mean_z;
    double var_factor;
};

// Whether the statistical part of dot_bound applies: only where the output
// is the reduction itself (matmul, reduce_sum) and the output dtype is the
// accumulator dtype (SPEC.md section 3). The probe decides.
enum class DotStatistics { apply, skip };

// One output element's dot_bound tolerance: c*gamma(K,u_acc)*M + u_out*|y*|.
double dot_bound_tolerance(const DotBoundParams& params, std::int64_t K, double u_acc, double u_out,
                           double magnitude, double exact);

// The verdict of dot_bound over the N outputs of one K, criterion by criterion.
struct DotBoundResult {
    // Per element: |y - y*| <= dot_bound_tolerance(...) for every output.
    bool elements_pass = true;
    std::size_t elements_failed = 0;
    std::size_t worst_index = 0;   // the element with the largest error/bound
    double worst_error = 0;        // |y - y*| there
    double worst_bound = 0;        // its tolerance
    double worst_ratio = 0;        // error/bound: 0 for an exact element, +inf for a
                                   // nonzero error against a zero bound or a non-finite y

    // Statistics of e = (y - y*) / (gamma(K,u_acc)*M) over the outputs with M > 0.
    bool statistics_applied = false;  // false: the fields below stay as they are and pass
    std::size_t statistics_outputs = 0;  // N: the outputs with M > 0
    bool count_pass = true;           // N >= min_outputs
    double mean = 0;                  // (1/N) sum e
    double mean_limit = 0;            // mean_z * sqrt(var_factor / (K*N))
    bool mean_pass = true;            // |mean| <= mean_limit
    double variance = 0;              // (1/N) sum (e - mean)^2
    double variance_limit = 0;        // var_factor / K
    bool variance_pass = true;        // variance <= variance_limit

    bool pass() const { return elements_pass && count_pass && mean_pass && variance_pass; }
};

// dot_bound (SPEC.md section 3, C-PRC-01 postcondition) for outputs got[i]
// against the oracle's exact[i] and magnitude[i] (M = sum |a_k b_k|), all of
// one reduction length K. The spans must have the same length. A NaN or
// infinite got[i] fails its element (ratio +inf) and, where M > 0, makes
// the mean and variance NaN, which fail their comparisons.
DotBoundResult check_dot_bound(std::span<const double> got, std::span<const double> exact,
                               std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                               const DotBoundParams& params, DotStatistics statistics);

// The error of a result in ulps of its format at the reference value:
//   ulp_error = |got - reference| / ulp_at(format, reference)   (formats.hpp defines ulp_at).
// Special values follow SPEC.md section 3 (ulp_table):
//  reference NaN: 0 if got is a NaN, +inf otherwise; got NaN, reference not: +inf;
//  an infinite got or reference is replaced by +-2^(emax+1) for the
//  formula, and ulp_at(+-inf) is the ulp of the largest finite;
//  +0 and -0 are equal.
// reference may be any double (exact, or the correctly rounded result).
double ulp_error(Format format, std::uint32_t got_bits, double reference);

struct UlpBoundResult {
    bool pass = true;              // every ulp_error <= bound
    std::size_t elements_failed = 0;
    std::size_t worst_index = 0;   // the largest ulp error (the first of equals)
    double worst_ulp_error = 0;
};

// ulp_error(format, got[i], reference[i]) <= bound for every i; the spans
// must have the same length.
UlpBoundResult check_ulp_bound(Format format, std::span<const std::uint32_t> got,
                               std::span<const double> reference, double bound);

}  // namespace kcs::ref
