// A run as its report records it, read back into the types that made the
// report: the claims, the instance verdicts and case records. kcs merge
// joins shards with them and kcs verify remakes the plan and the summary
// with them, so that both judge a report with the code that wrote it.
// kcs verify --rerun runs cases again with them.
#pragma once

#include <optional>
#include <string>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/reports/report.hpp"

namespace kcs::reports {

// predicate.claims as a Claims (values, declared, not needed, file, digest).
harness::Claims claims_of(const Json& recorded);

// A verdict as the report writes it ("PASS", ...); none for anything else.
std::optional<harness::Verdict> verdict_of(const Json& text);

// An instance's recorded verdict and its cases (seeds, verdicts, times),
// attached to the plan's `instance`; none when a verdict is not one kcs
// records (`bad` then names it).
std::optional<harness::InstanceResult> result_of(const harness::Instance& instance, const Json& recorded,
                                                 std::string& bad);

}  // namespace kcs::reports
