// The precision family's signatures chosen by their evidence: each function
// states, in code, the selected_when of its class's signatures
// (spec/v1/classes/C-PRC-0N.yaml), computes the figures the condition reads,
// and returns the signature whose condition holds, "unmatched" where none
// does, empty where nothing failed. Pure functions of the figures, so that a
// test can show each pattern and the vacuous ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::suites::precision {

// C-PRC-01: what one K (or key length T) of the sweep showed.
struct AccumulatorPoint {
    std::int64_t K = 0;
    std::size_t elements_failed = 0;  // beyond dot_bound
    bool stalled = false;             // a failing sum of ones stuck at a power of two below K
    bool mean_pass = true;            // dot_bound's statistics (true where they do not apply)
    bool variance_pass = true;
};

// The sweep's signature is read at its smallest failing K, where the
// violation first shows: stalled-sum-of-ones where a sum of ones stalled
// there; narrow-accumulator where elements (or the variance) fail there and
// at every larger K, the growth of a narrower accumulator's error; biased-
// rounding where only the mean fails there. A failure that does not persist
// to the longer reductions is no accumulator's width: unmatched. `figures`:
// failing_K, fails_at_every_larger_K.
std::string accumulator_signature(const std::vector<AccumulatorPoint>& sweep, spec::Json& figures);

// C-PRC-02: a data set's part in the protocol. The baseline is data set
// (1), normal(0,1), which any kernel that is not simply wrong passes; the
// provoking sets are those the signature's mechanism needs (softmax and
// attention: a largest logit past exp's overflow threshold; norms: a large
// mean with a small or zero spread).
enum class StabilityRole { baseline, provoking, other };

struct StabilitySet {
    StabilityRole role = StabilityRole::baseline;
    std::size_t nonfinite = 0;  // inf or NaN where y* is finite
    std::size_t nan = 0;        // of those, NaN
    std::size_t elements_over_bound = 0;
    std::size_t rows_over_sum_bound = 0;  // softmax only
};

// Non-finite outputs only in the provoking sets while the baseline passes:
// `provoked` ("nonfinite-where-finite" for rows, "negative-variance" for
// norms, which also needs every such output NaN, `nan_only`); finite rows
// whose sums miss 1: row-sum-drift; anything else: unmatched. `figures`:
// baseline_passes, nonfinite_in_provoking_sets, nonfinite_elsewhere,
// nonfinite_all_nan.
std::string stability_signature(const std::vector<StabilitySet>& sets, const std::string& provoked, bool nan_only,
                                 spec::Json& figures);

// C-PRC-03: what the exactness probes showed, for the operand with the
// least p_eff margin.
struct ComputePrecisionFigures {
    std::size_t range_coerced = 0;  // range-probe outputs with |y*| above 65504 returned as inf or 65504
    int p_eff = 0;
    int required = 0;               // min_mantissa_bits of the operand's dtype
    std::size_t exact_above = 0;    // exact elements whose operands carry more than p_eff bits
    std::size_t inexact = 0;        // elements not equal to y*
};

// range-coercion where a range probe came back inf or 65504 (tried first: an
// f16 conversion also cuts p_eff to 11); reduced-input-mantissa where p_eff
// is below the requirement and the cut is clean, every element wider than
// p_eff inexact (exact_above = 0), as a narrower input format makes it; any
// other inexact output is unmatched. `figures`: p_eff, required,
// exact_above_p_eff, range_coerced.
std::string compute_precision_signature(const ComputePrecisionFigures& f, spec::Json& figures);

}  // namespace kcs::suites::precision
