// A real plan from spec/v1 to build summaries and reports over, with
// results made up per test.
#pragma once

#include <string>
#include <vector>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/reports/summary.hpp"

namespace kcs::reports::testing {

const spec::Catalog& catalog();

// The plan of `op` under core at smoke depth, with the claims of the
// adapter vendors/`claims_adapter`/ (reference-cpu's: every class applies)
// or, when it is empty, the catalog defaults (the if_claimed classes do
// not apply, and core rejects oob_policy: undefined).
struct TestPlan {
    harness::PlanRequest request;
    RunResults run;
};
TestPlan plan_of(const std::string& op, const std::string& claims_adapter = "reference-cpu");

// The description of a run of `t` by `adapter`, with fixed paths, times
// and versions so that reports built from it compare across runs.
RunDescription description_of(const TestPlan& t, const std::string& adapter = "reference-cpu");

// An instance result whose cases (one per entry) have these verdicts.
harness::InstanceResult result_with(const harness::Instance& instance, const std::vector<harness::Verdict>& cases);

// Every applicable instance PASS in two cases, the others NOT_APPLICABLE.
void pass_everything(RunResults& run);

// The index of the first instance of `class_id` (and of `config`, when given).
std::size_t index_of(const RunResults& run, const std::string& class_id, const std::string& config = "");

const ClassSummary& class_summary(const Summary& summary, const std::string& class_id);

// Makes an unsigned run's Statement name `key` as its signer, as kcs
// certify --signer writes it: signed, signer, and the certificate's reasons
// (a development key's named in place of "unsigned").
void name_signer(Json& statement, const PublicKey& key);

}  // namespace kcs::reports::testing
