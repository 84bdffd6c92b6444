// Typed verdicts and the evidence behind them (spec/SPEC.md section 5).
// A verdict is a value a probe returns; nothing counts as a pass unless a
// PASS was recorded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::harness {

// inconclusive: the protocol judged and saw no violation, but with less
// power than the class's catalog entry requires (its tolerance params
// detectable_rate and detection_probability): not a PASS, and not covered.
enum class Verdict { pass, fail, unsupported, not_applicable, crash, timeout, error, inconclusive };

std::string_view to_string(Verdict verdict);  // "PASS", "FAIL", ...

// The element that came closest to (or went furthest past) its bound.
struct WorstElement {
    std::int64_t index = 0;                  // row-major index in the output
    std::vector<std::string> inputs;         // the inputs that determine it, as "name[i]=0xBITS"
    double expected = 0;                     // the oracle's value
    double got = 0;                          // the adapter's value
    std::string got_bits;                    // the adapter's encoding, "0x..."
    double error = 0;                        // |got - expected| (or ulps, as figure_name says)
    double bound = 0;                        // what the tolerance allowed there
};

// What a case's model judged: how many of what ("elements", "stores",
// "runs", ...). SPEC section 5: a PASS means something was judged.
struct Judged {
    std::uint64_t count = 0;
    std::string unit;
};

struct Evidence {
    std::string figure_name;        // e.g. "max |err| / bound", "distinct output hashes"
    double figure = 0;              // the measured figure
    double bound = 0;               // its limit from the catalog's tolerance model
    std::optional<WorstElement> worst;
    spec::Json details = spec::Json::object();  // per-parameter figures (error against K, ...)
    Judged judged;                  // set by the probe
    std::uint64_t adapter_calls = 0;  // runs the adapter answered, set by the harness
};

// The outcome of one case (one instance, one seed).
struct CaseResult {
    Verdict verdict = Verdict::error;
    std::string violated_class;  // FAIL: the class whose postcondition broke (C-EXC-02 for breaches)
    std::string signature;       // FAIL: the matched violation signature id
    std::string message;         // one line a person can act on
    // FAIL: the classes whose postconditions every failing comparison took
    // as given (C-PRC-04's check (b) takes the accumulator-side bound, so a
    // wrong value before the store shows there too). Empty when the failure
    // stands on its own. primary_cause.hpp turns it into consequence_of.
    std::vector<std::string> assumes;
    Evidence evidence;
    // The case's inputs did not depend on its seed (an exhaustive sweep of
    // a whole domain): the runner judges it once and gives the depth's
    // other seeds the same result rather than repeating the sweep.
    bool seed_independent = false;
};

// A result that carries only a verdict and why (no measurement was made).
CaseResult verdict_only(Verdict verdict, std::string message);

// What becomes of a PASS that judged nothing (no adapter call answered, or
// no element judged): ERROR, saying so; every other result unchanged. A
// probe whose protocol cannot run on a configuration returns
// NOT_APPLICABLE with the reason instead (SPEC section 5).
CaseResult require_judgement(CaseResult result);

// Severity order for combining cases into an instance verdict:
// FAIL > CRASH > TIMEOUT > ERROR > INCONCLUSIVE > UNSUPPORTED > NOT_APPLICABLE > PASS.
Verdict worst_of(Verdict a, Verdict b);

}  // namespace kcs::harness
