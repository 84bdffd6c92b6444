#include <array>
#include <string>

#include "kcs/harness/verdict.hpp"

namespace kcs::harness {

namespace {

// Higher is worse; the order SPEC section 5 combines cases in.
int severity(Verdict v) {
    switch (v) {
        case Verdict::pass: return 0;
        case Verdict::not_applicable: return 1;
        case Verdict::unsupported: return 2;
        case Verdict::inconclusive: return 3;
        case Verdict::error: return 4;
        case Verdict::timeout: return 5;
        case Verdict::crash: return 6;
        case Verdict::fail: return 7;
    }
    return 4;  // as ERROR
}

}  // namespace

std::string_view to_string(Verdict verdict) {
    static constexpr std::array<std::string_view, 8> names{"PASS",  "FAIL",    "UNSUPPORTED", "NOT_APPLICABLE",
                                                           "CRASH", "TIMEOUT", "ERROR",       "INCONCLUSIVE"};
    return names[static_cast<std::size_t>(verdict)];
}

CaseResult verdict_only(Verdict verdict, std::string message) {
    CaseResult r;
    r.verdict = verdict;
    r.message = std::move(message);
    return r;
}

CaseResult require_judgement(CaseResult result) {
    if (result.verdict != Verdict::pass) return result;
    const Evidence& e = result.evidence;
    if (e.adapter_calls > 0 && e.judged.count > 0) return result;
    return verdict_only(Verdict::error, "no judgement reached: the probe returned PASS after " +
                                            std::to_string(e.adapter_calls) + " adapter calls and " +
                                            std::to_string(e.judged.count) + " " +
                                            (e.judged.unit.empty() ? "elements" : e.judged.unit) +
                                            " judged (a PASS must judge something)");
}

Verdict worst_of(Verdict a, Verdict b) { return severity(a) >= severity(b) ? a : b; }

}  // namespace kcs::harness
