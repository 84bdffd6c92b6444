// C-CMP-03's signatures chosen by their evidence (spec/v1/classes/C-CMP-03.yaml,
// selected_when), one rule for the elementwise, unary and norm probes
// (pointwise_contraction.cpp, norm_contraction.cpp). Pure functions of the
// counts, so that a test can show each pattern.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "kcs/reference/formats.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites::contraction {

// Whether an IEEE probe's wrong output is the one a finite-math or
// no-signed-zeros folding gives: a NaN the definition gives returned as a
// finite number (inf - inf or 0 * inf folded, maximum's NaN test folded
// away: the non-NaN operand), a zero or an infinity of the sign opposite
// to the definition's (a signed zero taken for the other). For maximum an
// x86 maxps-style instruction gives the same values (its second operand
// when unordered or equal); the signature's text says so. Any other wrong
// value (log(1) returned as 1e-8, say) is not a folding.
bool folded_by_finite_math(ref::Format out, double expected, std::uint32_t got);

// What a case's elements were, beside those equal to an allowed evaluation.
struct Figures {
    bool contract_on = false;
    std::size_t fused = 0;        // contraction elements equal to the fused evaluation only
    std::size_t regrouped = 0;    // contraction elements equal to no allowed evaluation
    std::size_t ieee_folded = 0;  // IEEE elements wrong as folded_by_finite_math says
    std::size_t ieee_other = 0;   // IEEE elements wrong otherwise
    std::size_t plain = 0;        // drawn add, mul, maximum elements off their one value
};

// The contraction probes decide first, the IEEE probes where those are clean:
//   fused-where-unfused-declared  under off, some contraction element is the
//                                 fused value and none is regrouped;
//   reassociated                  some contraction element is no allowed
//                                 evaluation and none is fused under off;
//   finite-math-folding           the contraction elements are allowed, and
//                                 every wrong IEEE element is a folding;
//   unmatched                     anything else (fused beside regrouped, IEEE
//                                 errors that are no folding, drawn elements).
// Empty where nothing is wrong. `figures`: the counts.
std::string signature(const Figures& f, spec::Json& figures);

}  // namespace kcs::suites::contraction
