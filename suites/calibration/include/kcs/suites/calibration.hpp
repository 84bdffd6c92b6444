// Calibration (spec/SPEC.md section 6): for every instance a class's
// calibration exercises, the conforming implementation must PASS, each
// violator must FAIL with the class and its listed signature, and the
// violator must pass the basic functional test; anything else leaves the
// instance, and its class, UNDER_SPECIFIED. Echoes: each violator is also
// run over the other classes on the configurations it was caught on (and
// their full-width siblings), and each FAIL there must be a consequence of
// its own class's FAIL by the primary-cause rule (a row marked echo), or a
// genuine violation of that class too (also_fails in the catalog), else the
// row is UNDER_SPECIFIED. The fourth state: every claim
// conformer (a conforming implementation of a claim value the profiles
// accept) must PASS, or be NOT_APPLICABLE, on every instance its claims and
// profile plan; anything else is a FALSE_ALARM of the instance's class.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/runner.hpp"
#include "kcs/suites/functional_test.hpp"

namespace kcs::suites {

struct CalibrationRow {
    std::string instance_id;
    std::string implementation;  // "reference-cpu", the violation's name, or "conforming=NAME"
    std::string expected;        // "PASS", or "FAIL C-PRC-01 narrow-accumulator"
    std::string observed;        // the verdict, class and signature seen
    std::optional<FunctionalOutcome> functional;  // violators only
    bool sound = false;
    std::string reason;  // why not sound
    bool conformer = false;  // a claim conformer's row: not sound is a FALSE_ALARM

    // SOUND, UNDER_SPECIFIED, or FALSE_ALARM.
    std::string_view state() const;
};

// A claim conformer of the calibration adapter (conforming=NAME), with the
// claims file it conforms under and the plan those claims and its profile
// give.
struct ClaimConformer {
    std::string name;
    harness::Claims claims;
    std::vector<harness::Instance> plan;
};

struct ClassCalibration {
    std::string class_id;
    std::vector<CalibrationRow> rows;
    std::vector<std::string> not_covered;  // violator x operator pairs with no probe yet

    bool sound() const;  // every row sound (and at least one row)
};

struct CalibrationRequest {
    const spec::Catalog* catalog = nullptr;
    const std::vector<harness::Instance>* plan = nullptr;  // planned with the conforming adapter's claims
    const harness::Claims* claims = nullptr;
    std::filesystem::path conforming_adapter;   // reference-cpu
    std::filesystem::path calibration_adapter;  // calibration (violation=NAME)
    std::optional<std::string> only_class, only_operator;
    std::uint64_t seed = 1;
    int seeds = 2;
    std::chrono::milliseconds call_timeout{30'000};
    // The probe of a (class, operator) pair, nullptr when none exists yet.
    std::function<harness::Probe(const std::string&, const std::string&)> find_probe;
    // Called after each row, for progress output.
    std::function<void(const CalibrationRow&)> on_row;
    // State 4: each runs its whole plan on the calibration adapter.
    const std::vector<ClaimConformer>* conformers = nullptr;
};

std::vector<ClassCalibration> calibrate(const CalibrationRequest& request);

// The operators a claim conformer's claims state (SPEC.md section 6), which
// it is run over: the union of the catalog's `operators` of each claim
// whose value differs from the conforming implementation's; empty (every
// operator) when one of them names none. Elsewhere the conformer computes
// as the conforming implementation does.
std::vector<std::string> stated_operators(const spec::Catalog& catalog, const harness::Claims& conformer,
                                          const harness::Claims& conforming);

// Every claim value a profile of the catalog accepts (all of a claim's
// values where the profile does not restrict it) that neither the
// conforming implementation's claims nor any conformer's make, as
// "subnormals: flush (profile core)": each wants a conformer. Empty: all covered.
std::vector<std::string> claim_values_without_conformer(const spec::Catalog& catalog, const harness::Claims& conforming,
                                                        const std::vector<ClaimConformer>& conformers);

}  // namespace kcs::suites
