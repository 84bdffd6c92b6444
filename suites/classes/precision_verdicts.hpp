// How the precision family's probes turn what they measured into a case
// verdict: PASS when no signature was matched, otherwise FAIL of the
// instance's class with that signature (or "unmatched").
#pragma once

#include <string>
#include <utility>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/verdict.hpp"

namespace kcs::suites::precision {

// SPEC section 5: a failure no signature describes.
inline constexpr const char* kUnmatched = "unmatched";

// `signature` empty: PASS. The evidence is recorded either way (a PASS keeps
// its key figure and the citation of its bound).
inline harness::CaseResult case_verdict(const harness::Instance& instance, std::string signature, std::string message,
                                        harness::Evidence evidence) {
    harness::CaseResult r;
    r.verdict = signature.empty() ? harness::Verdict::pass : harness::Verdict::fail;
    if (!signature.empty()) r.violated_class = instance.contract->id;
    r.signature = std::move(signature);
    r.message = std::move(message);
    r.evidence = std::move(evidence);
    return r;
}

}  // namespace kcs::suites::precision
