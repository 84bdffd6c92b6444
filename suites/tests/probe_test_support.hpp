// Running one instance of the real catalog through the runner, on a real
// adapter (reference-cpu, or calibration with a violation), for probe tests.
#pragma once

#include <map>
#include <string>

#include "kcs/harness/runner.hpp"

namespace kcs::suites::testing {

struct ProbeRun {
    harness::Verdict verdict;
    harness::InstanceResult result;  // its instance pointer stays valid for the test's life
};

// Plans `profile` at `depth` with the adapter's claims file (vendors/NAME/claims.yaml),
// finds the instance `instance_id`, runs it with two seeds from base seed 1 on
// `adapter` ("reference-cpu", or "calibration" with `violation`: a violation's
// name, or an option such as "conforming=ftz"). The probe sees the claims
// with `claims` put over them (e.g. another oob_policy).
ProbeRun run_instance(const std::string& instance_id, const std::string& adapter,
                      const std::string& violation = "", const std::string& depth = "smoke",
                      const std::string& profile = "strict", const std::map<std::string, std::string>& claims = {});

// run_instance at depth smoke under profile strict, of the instance as a
// part of its sweep or as the fold of its parts (Instance::sweep = split).
ProbeRun run_split_instance(const std::string& instance_id, const harness::Instance::SweepSplit& split,
                            const std::string& adapter, const std::string& violation = "");

// "v1/CLASS/OP/CONFIG/VARIANT", the variant the plan gives the class
// (plan.hpp's variant_of): OP may be a family member, "unary.exp".
std::string instance_id(const std::string& class_id, const std::string& op, const std::string& config);

// What a conforming implementation gets: PASS, each case with an adapter
// call and a judged element, where the plan applies the instance; where it
// does not (nothing to judge in that configuration), NOT_APPLICABLE with
// the plan's reason (GoogleTest assertions).
void expect_conforming(const ProbeRun& run);

// "FAIL C-PRC-01 narrow-accumulator: message" for assertion messages.
std::string describe(const harness::InstanceResult& result);

// The instance on the calibration adapter under `violation` FAILs, and every
// case FAILs with `class_id` and `signature` (GoogleTest assertions).
void expect_fail(const std::string& instance, const std::string& violation, const std::string& class_id,
                 const std::string& signature);

}  // namespace kcs::suites::testing
