// The ieee_special tolerance model (spec/SPEC.md section 3): the oracle
// evaluates the operator's definition under IEEE 754 (maximum propagating
// NaN), on probes without finite overflow, and each element is judged by
// class only: y* NaN needs a NaN y (any payload), y* +-inf the same
// infinity, y* finite a finite y. In softmax and attention a -inf (masked)
// position of a row with an unmasked entry MUST be exactly zero and every
// element of a fully masked row MUST be the masked_row value (NaN or zero).
// Signs of zeros are not judged (C-CMP-03's), so a zero is a zero.
//
// C-EXC-01 (spec/v1/classes/C-EXC-01.yaml) names the way an element missed.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "kcs/reference/formats.hpp"

namespace kcs::suites {

// What the model requires of one element.
enum class SpecialExpectation {
    nan,              // y* is NaN
    positive_inf,     // y* is +inf
    negative_inf,     // y* is -inf
    finite,           // y* is finite
    masked_zero,      // a -inf position in a row with an unmasked entry: exactly zero
    masked_row_nan,   // a fully masked row under masked_row: nan
    masked_row_zero,  // a fully masked row under masked_row: zero
};
std::string_view to_string(SpecialExpectation expectation);

// The expectation of an unmasked element from its y* (f64; only its class is used).
SpecialExpectation expectation_of(double y_star);

// not_a_copy: of the right class but not bit for bit the element copied,
// where the definition is a copy (gather): a NaN quieted or its payload
// changed, a zero of the other sign. Judged by the caller, which knows the bits.
enum class SpecialMismatch { none, masked_leak, nan_dropped, infinity_lost, nan_created, unmatched, not_a_copy };
std::string_view to_string(SpecialMismatch mismatch);

// How the element y (bits of `out`) misses its expectation:
//   masked_leak    a masked position or a fully masked row not as required;
//   nan_dropped    a number or an infinity where y* is NaN;
//   infinity_lost  a finite value or the other infinity where y* is an infinity;
//   nan_created    a NaN or an infinity where y* is finite;
//   unmatched      a NaN where y* is an infinity (no signature describes it).
SpecialMismatch judge_special(SpecialExpectation expected, ref::Format out, std::uint32_t got_bits);

// The C-EXC-01 signature of a case from the mismatches it saw (the
// catalog's selected_when): masked-leak wherever a masked position or row
// missed (the class matches it before the others); otherwise nan-dropped,
// infinity-lost or nan-created where every miss of the wrong class is of
// that one kind, unmatched for a mix of kinds or a NaN where y* is an
// infinity, and not-a-copy where every element has its class and some are
// not bit-for-bit copies. Requires a mismatch.
std::string special_signature(const std::set<SpecialMismatch>& mismatches);

}  // namespace kcs::suites
