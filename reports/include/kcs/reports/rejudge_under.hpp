// kcs rejudge: a report's verdicts as another catalog version would give
// them, from the report's evidence alone, without running anything. For
// each instance it says whether the other version would give the same
// verdict, another one (its figures judged against that version's bound),
// or cannot be decided without rerunning (the protocol changed: other
// parameters, an evidence requirement, a bound that applies element by
// element); and which instances that version plans that the report lacks.
#pragma once

#include <string>
#include <vector>

#include "kcs/reports/report.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

struct InstanceOutlook {
    std::string instance_id;
    std::string verdict;   // the report's
    std::string would_be;  // under the target version; empty where undecided
    std::string why;
};

struct Rejudgement {
    std::string report_version, target_version;
    std::vector<InstanceOutlook> changed;     // another verdict, decided from the evidence
    std::vector<InstanceOutlook> rerun;       // cannot be decided without rerunning
    std::size_t unchanged = 0;                // the same verdict, the same protocol and bound
    std::vector<std::string> dropped;         // the report's instances the target does not plan
    std::vector<std::string> lacking;         // the target's instances (CLASS/OP/CONFIG) the report lacks
};

// `statement` is a report; `own` its catalog where this kcs carries it (by
// digest; null otherwise, and then the evidence's cited tolerance stands
// in); `target` the catalog to judge under.
Rejudgement rejudge_under(const Json& statement, const spec::Catalog* own, const spec::Catalog& target);

std::string rejudgement_text(const Rejudgement& r);
Json rejudgement_json(const Rejudgement& r);

}  // namespace kcs::reports
