// The one way a probe turns what it judged into a case verdict: PASS when
// no violation signature was matched, otherwise FAIL of the instance's
// class with a signature its catalog entry lists (or "unmatched").
#pragma once

#include <string>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/verdict.hpp"

namespace kcs::harness {

// SPEC section 5: a failure no signature of the class describes.
inline constexpr const char* kUnmatched = "unmatched";

CaseResult passed(std::string message, Evidence evidence);

// Throws std::logic_error when the instance's class lists no signature
// `signature` (a probe naming a failure its catalog entry does not know).
CaseResult failed(const Instance& instance, std::string signature, std::string message, Evidence evidence);

// `signature` empty: passed(); otherwise failed(). The evidence is
// recorded either way (a PASS keeps its figure and the citation of its bound).
CaseResult case_verdict(const Instance& instance, std::string signature, std::string message, Evidence evidence);

}  // namespace kcs::harness
