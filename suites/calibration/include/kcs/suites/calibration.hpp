// Three-state calibration (spec/SPEC.md section 6): for every instance a
// class's calibration exercises, the conforming implementation must PASS,
// each violator must FAIL with the class and its listed signature, and the
// violator must pass the basic functional test. Anything else leaves the
// instance, and its class, UNDER_SPECIFIED.
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
    std::string implementation;  // "reference-cpu", or the violation's name
    std::string expected;        // "PASS", or "FAIL C-PRC-01 narrow-accumulator"
    std::string observed;        // the verdict, class and signature seen
    std::optional<FunctionalOutcome> functional;  // violators only
    bool sound = false;
    std::string reason;  // why not sound
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
};

std::vector<ClassCalibration> calibrate(const CalibrationRequest& request);

}  // namespace kcs::suites
