// The dot_bound tolerance model (spec/SPEC.md section 3), bound to the
// catalog's parameters (c, min_outputs, mean_z, var_factor).
//
// Per element, with K the reduction length, M the oracle's magnitude term
// and y* its exact value:
//     |y - y*| <= c * gamma(K, u(acc)) * M + u(out) * |y*|.
// Statistics over the N outputs of one K that have M > 0, with
// e = (y - y*) / (gamma(K, u(acc)) * M), mean and population variance var:
//     N >= min_outputs,  |mean| <= mean_z * sqrt(var_factor / (K * N)),  var <= var_factor / K.
// They apply only where the output is the reduction itself and the output
// dtype is the accumulator dtype; the probe says which.
//
// Output rounding below the normal range: the probes judge elements by
// bound_with_underflow(), whose output term is output_underflow.hpp's: the
// catalog's u(out) |y*| wherever y* is in the output's normal range, its
// first-principles extension below it (softmax probabilities in f16 fall
// there), a flushed result included where subnormals: flush is claimed.
//
// The arithmetic is kcs_numerics' check_dot_bound and dot_bound_tolerance
// (reference/numerics bounds.hpp), tested there; this file only reads the
// parameters from the class that names the model.
#pragma once

#include <cstdint>
#include <span>

#include "kcs/reference/bounds.hpp"
#include "kcs/spec/catalog.hpp"

#include "output_underflow.hpp"

namespace kcs::suites::tolerance {

struct DotBound {
    ref::DotBoundParams params;

    // Throws std::invalid_argument unless `contract` names dot_bound with all four parameters.
    static DotBound from_catalog(const spec::ContractClass& contract);

    // c * gamma(K, u_acc) * M + u_out * |y*| for one element: the catalog's formula.
    double element_bound(std::int64_t K, double u_acc, double u_out, double magnitude, double exact) const;

    // c * gamma(K, u_acc) * M + the output term of `underflow` (output_underflow.hpp).
    double bound_with_underflow(std::int64_t K, double u_acc, double u_out, const OutputUnderflow& underflow,
                                double magnitude, double exact) const;

    // The statistics, and kcs_numerics' per-element verdict by element_bound
    // (probes judge elements by bound_with_underflow).
    ref::DotBoundResult check(std::span<const double> got, std::span<const double> exact,
                              std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                              ref::DotStatistics statistics) const;
};

}  // namespace kcs::suites::tolerance
