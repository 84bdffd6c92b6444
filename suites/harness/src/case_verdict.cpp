#include "kcs/harness/case_verdict.hpp"

#include <stdexcept>
#include <utility>

namespace kcs::harness {

CaseResult passed(std::string message, Evidence evidence) {
    CaseResult r;
    r.verdict = Verdict::pass;
    r.message = std::move(message);
    r.evidence = std::move(evidence);
    return r;
}

CaseResult failed(const Instance& instance, std::string signature, std::string message, Evidence evidence) {
    if (signature != kUnmatched && instance.contract->signature(signature) == nullptr)
        throw std::logic_error(instance.contract->id + " lists no violation signature '" + signature + "'");
    CaseResult r;
    r.verdict = Verdict::fail;
    r.violated_class = instance.contract->id;
    r.signature = std::move(signature);
    r.message = std::move(message);
    r.evidence = std::move(evidence);
    return r;
}

CaseResult case_verdict(const Instance& instance, std::string signature, std::string message, Evidence evidence) {
    if (signature.empty()) return passed(std::move(message), std::move(evidence));
    return failed(instance, std::move(signature), std::move(message), std::move(evidence));
}

}  // namespace kcs::harness
