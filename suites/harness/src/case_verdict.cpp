#include "kcs/harness/case_verdict.hpp"

#include <stdexcept>
#include <utility>

#include "kcs/reference/number_text.hpp"
#include "kcs/spec/tolerance_models.hpp"

namespace kcs::harness {

namespace {

// The verdict must be the one kcs verify re-judges from the figure: the
// same function (spec::figure_holds) decides which way it holds.
void require_figure_agrees(const Instance& instance, bool pass, const Evidence& evidence) {
    const spec::ToleranceModel* model = spec::find_tolerance_model(instance.contract->tolerance.model);
    if (!model) throw std::logic_error(instance.contract->id + ": no tolerance model '" +
                                       instance.contract->tolerance.model + "'");
    if (spec::figure_holds(*model, evidence.figure, evidence.bound) == pass) return;
    throw std::logic_error(instance.id + ": a " + (pass ? "PASS" : "FAIL") + " whose figure " +
                           ref::number_text(evidence.figure) + " (" + evidence.figure_name + ") " +
                           (pass ? "breaks" : "keeps within") + " its bound " + ref::number_text(evidence.bound) +
                           " under " + model->name);
}

}  // namespace

CaseResult passed(const Instance& instance, std::string message, Evidence evidence) {
    require_figure_agrees(instance, true, evidence);
    CaseResult r;
    r.verdict = Verdict::pass;
    r.message = std::move(message);
    r.evidence = std::move(evidence);
    return r;
}

CaseResult failed(const Instance& instance, std::string signature, std::string message, Evidence evidence) {
    if (signature != kUnmatched && instance.contract->signature(signature) == nullptr)
        throw std::logic_error(instance.contract->id + " lists no violation signature '" + signature + "'");
    require_figure_agrees(instance, false, evidence);
    CaseResult r;
    r.verdict = Verdict::fail;
    r.violated_class = instance.contract->id;
    r.signature = std::move(signature);
    r.message = std::move(message);
    r.evidence = std::move(evidence);
    return r;
}

CaseResult case_verdict(const Instance& instance, std::string signature, std::string message, Evidence evidence) {
    if (signature.empty()) return passed(instance, std::move(message), std::move(evidence));
    return failed(instance, std::move(signature), std::move(message), std::move(evidence));
}

}  // namespace kcs::harness
