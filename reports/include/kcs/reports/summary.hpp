// The judgement of a run (spec/SPEC.md section 5): per class and for the
// profile CONFORMANT, NON-CONFORMANT or INCOMPLETE, with coverage and pass
// rate as separate numbers, and where the time went.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/harness/runner.hpp"

namespace kcs::reports {

// What a run has recorded so far: one slot per plan instance, in plan
// order. An empty slot is a missing instance (not run yet, or never): it
// never counts as a pass.
struct RunResults {
    std::vector<harness::Instance> plan;
    std::vector<std::optional<harness::InstanceResult>> results;
};

enum class RunState {
    in_progress,  // a partial report written while the run goes on: a harness crash leaves this one
    interrupted,  // stopped by a signal before every instance ran
    finished,     // every instance has its verdict
};
std::string_view to_string(RunState state);  // "in_progress", "interrupted", "finished"

// NOT_APPLICABLE for a class none of whose planned instances applies (the
// claims exclude it): it judges nothing, so it is neither of the others.
enum class Judgement { conformant, non_conformant, incomplete, not_applicable };
std::string_view to_string(Judgement judgement);  // "CONFORMANT", "NON-CONFORMANT", "INCOMPLETE", "NOT_APPLICABLE"

// Instance counts by verdict. Applicable = planned - NOT_APPLICABLE;
// executed = PASS + FAIL + CRASH + TIMEOUT.
struct Tally {
    std::size_t planned = 0;
    std::size_t not_applicable = 0;
    std::size_t pass = 0, fail = 0, crash = 0, timeout = 0, error = 0, unsupported = 0;
    std::size_t inconclusive = 0;  // judged without the catalog's required power: not executed, not covered
    std::size_t consequence = 0;  // of fail: consequences of another class's FAIL (primary_cause.hpp)
    std::size_t missing = 0;  // applicable, with no recorded verdict

    std::size_t applicable() const { return planned - not_applicable; }
    std::size_t primary_fail() const { return fail - consequence; }
    std::size_t executed() const { return pass + fail + crash + timeout; }
    // executed / applicable and PASS / executed; none when the divisor is 0.
    std::optional<double> coverage() const;
    std::optional<double> pass_rate() const;
};

struct ClassSummary {
    std::string class_id;
    std::string title;
    std::string requirement;  // the profile's: required | if_claimed
    Tally tally;
    Judgement verdict = Judgement::incomplete;
    std::vector<std::string> reasons;  // why not CONFORMANT; empty when it is
};

struct ProfileSummary {
    std::string profile_id;
    Tally tally;
    Judgement verdict = Judgement::incomplete;  // never not_applicable
    std::vector<std::string> reasons;
    std::vector<harness::RejectedClaim> rejected_claims;
};

struct Summary {
    std::vector<ClassSummary> classes;  // every class with a planned instance, by class id
    ProfileSummary profile;
};

Summary summarize(const RunResults& run, const spec::Profile& profile, const harness::Claims& claims, RunState state);

// Where the time of a run went: outside cases (catalog, plan, worker
// start, report writing) and inside them, and inside them the adapter's
// calls apart from the probe's and oracle's work. The adapter's share is
// known only when the harness records it per case (adapter_time below).
struct TimeSplit {
    double total_s = 0;                          // wall time, start to end
    double outside_cases_s = 0;                  // total less the wall time while cases ran
    double case_time_s = 0;                      // the cases' own times summed (over every worker with --jobs)
    std::optional<double> adapter_s;             // of case_time: inside adapter calls
    std::optional<double> oracle_and_harness_s;  // of case_time: the rest
};
// `cases_wall`: the wall time from the first case's start to the last one's end.
TimeSplit time_split(const RunResults& run, std::chrono::nanoseconds total, std::chrono::nanoseconds cases_wall);

// The index of the case that gave the instance its verdict (the first with
// that verdict); none for an instance without cases.
std::optional<std::size_t> worst_case(const harness::InstanceResult& result);

}  // namespace kcs::reports
