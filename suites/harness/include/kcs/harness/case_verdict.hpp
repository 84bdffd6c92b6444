// The one way a probe turns what it judged into a case verdict: PASS when
// no violation signature was matched, otherwise FAIL of the instance's
// class with a signature its catalog entry lists (or "unmatched").
//
// Both check the verdict against its figure by the rule kcs verify
// re-judges it with (reports/src/rejudge.cpp): spec::figure_holds, in the
// direction of the class's tolerance model. A PASS whose figure breaks its
// bound, or a FAIL whose figure keeps within it, is a defect of the probe
// and throws, so no report can carry a verdict its verifier would refuse.
#pragma once

#include <string>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/verdict.hpp"

namespace kcs::harness {

// SPEC section 5: a failure no signature of the class describes.
inline constexpr const char* kUnmatched = "unmatched";

// Throws std::logic_error when the figure breaks its bound.
CaseResult passed(const Instance& instance, std::string message, Evidence evidence);

// Throws std::logic_error when the instance's class lists no signature
// `signature` (a probe naming a failure its catalog entry does not know),
// or when the figure keeps within its bound.
CaseResult failed(const Instance& instance, std::string signature, std::string message, Evidence evidence);

// `signature` empty: passed(); otherwise failed(). The evidence is
// recorded either way (a PASS keeps its figure and the citation of its bound).
CaseResult case_verdict(const Instance& instance, std::string signature, std::string message, Evidence evidence);

}  // namespace kcs::harness
