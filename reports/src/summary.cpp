// The class and profile verdicts of spec/SPEC.md section 5, computed from
// the recorded instance verdicts only: a missing verdict is never a pass.
#include "kcs/reports/summary.hpp"

#include <algorithm>
#include <map>

#include "kcs/harness/primary_cause.hpp"

namespace kcs::reports {

namespace {

using harness::Verdict;

void count(Tally& tally, const harness::Instance& instance, const std::optional<harness::InstanceResult>& result,
           bool consequence) {
    ++tally.planned;
    if (!instance.applicable || (result && result->verdict == Verdict::not_applicable)) {
        ++tally.not_applicable;
        return;
    }
    if (!result) {
        ++tally.missing;
        return;
    }
    switch (result->verdict) {
        case Verdict::pass:
            ++tally.pass;
            break;
        case Verdict::fail:
            ++tally.fail;
            if (consequence) ++tally.consequence;
            break;
        case Verdict::crash:
            ++tally.crash;
            break;
        case Verdict::timeout:
            ++tally.timeout;
            break;
        case Verdict::error:
            ++tally.error;
            break;
        case Verdict::unsupported:
            ++tally.unsupported;
            break;
        case Verdict::inconclusive:
            ++tally.inconclusive;
            break;
        case Verdict::not_applicable:
            break;
    }
}

// An (operator, configuration) pair: declining one as a whole only lowers
// coverage, declining part of it while running the rest is partial support.
std::string pair_of(const harness::Instance& instance) {
    return instance.op->id + (instance.function ? "." + *instance.function : "") + " " + instance.config.id();
}

struct PairUse {
    bool unsupported = false;
    bool executed = false;
};

bool executed(Verdict v) {
    return v == Verdict::pass || v == Verdict::fail || v == Verdict::crash || v == Verdict::timeout;
}

// The instances one verdict is taken over (a class's, or the profile's).
struct Group {
    Tally tally;
    std::map<std::string, PairUse> pairs;

    void add(const harness::Instance& instance, const std::optional<harness::InstanceResult>& result,
             bool consequence) {
        count(tally, instance, result, consequence);
        if (!result) return;
        auto& use = pairs[pair_of(instance)];
        use.unsupported = use.unsupported || result->verdict == Verdict::unsupported;
        use.executed = use.executed || executed(result->verdict);
    }
};

void add_count_reason(std::vector<std::string>& reasons, std::size_t n, std::string_view what) {
    if (n > 0) reasons.push_back(std::to_string(n) + " " + std::string(what));
}

// The verdict over a group; `rejected` only for the profile.
Judgement judge(const Group& group, RunState state, const std::vector<harness::RejectedClaim>& rejected,
                std::vector<std::string>& reasons) {
    const Tally& t = group.tally;
    add_count_reason(reasons, t.primary_fail(), "FAIL");
    add_count_reason(reasons, t.crash, "CRASH");
    add_count_reason(reasons, t.timeout, "TIMEOUT");
    for (const auto& r : rejected) {
        std::string accepted;
        for (const auto& v : r.accepted) accepted += (accepted.empty() ? "" : ", ") + v;
        reasons.push_back("claim " + r.id + ": " + r.value + " is not accepted (the profile accepts " + accepted + ")");
    }
    const bool non_conformant = t.primary_fail() + t.crash + t.timeout > 0 || !rejected.empty();

    const std::size_t before = reasons.size();
    // A consequence decides nothing about its own class: the precondition
    // its comparisons needed did not hold (SPEC.md section 5, "Primary cause").
    add_count_reason(reasons, t.consequence, "FAIL as a consequence of another class's FAIL (not decided)");
    add_count_reason(reasons, t.error, "ERROR (no judgement reached)");
    add_count_reason(reasons, t.inconclusive, "INCONCLUSIVE (no violation seen, but without the power the catalog requires)");
    add_count_reason(reasons, t.missing, "missing (no verdict recorded)");
    if (state == RunState::interrupted) reasons.push_back("the run was interrupted");
    if (state == RunState::in_progress) reasons.push_back("the run had not finished");
    for (const auto& [pair, use] : group.pairs)
        if (use.unsupported && use.executed)
            reasons.push_back("partial support: " + pair + " is UNSUPPORTED in some instances and run in others");
    if (t.executed() == 0) reasons.push_back("no instance was executed");
    const bool incomplete = reasons.size() > before;

    if (non_conformant) return Judgement::non_conformant;
    return incomplete ? Judgement::incomplete : Judgement::conformant;
}

}  // namespace

std::string_view to_string(RunState state) {
    switch (state) {
        case RunState::in_progress:
            return "in_progress";
        case RunState::interrupted:
            return "interrupted";
        case RunState::finished:
            return "finished";
    }
    return "?";
}

std::string_view to_string(Judgement judgement) {
    switch (judgement) {
        case Judgement::conformant:
            return "CONFORMANT";
        case Judgement::non_conformant:
            return "NON-CONFORMANT";
        case Judgement::incomplete:
            return "INCOMPLETE";
        case Judgement::not_applicable:
            return "NOT_APPLICABLE";
    }
    return "?";
}

std::optional<double> Tally::coverage() const {
    if (applicable() == 0) return std::nullopt;
    return static_cast<double>(executed()) / static_cast<double>(applicable());
}

std::optional<double> Tally::pass_rate() const {
    if (executed() == 0) return std::nullopt;
    return static_cast<double>(pass) / static_cast<double>(executed());
}

Summary summarize(const RunResults& run, const spec::Profile& profile, const harness::Claims& claims, RunState state) {
    std::map<std::string, Group> by_class;
    std::map<std::string, std::string> titles;
    Group all;
    const auto consequences = harness::primary_causes(run.plan, run.results);
    for (std::size_t i = 0; i < run.plan.size(); ++i) {
        const harness::Instance& instance = run.plan[i];
        const auto& result = i < run.results.size() ? run.results[i] : std::optional<harness::InstanceResult>{};
        const bool consequence = consequences[i].has_value();
        by_class[instance.contract->id].add(instance, result, consequence);
        titles[instance.contract->id] = instance.contract->title;
        all.add(instance, result, consequence);
    }

    Summary summary;
    for (const auto& [class_id, group] : by_class) {
        ClassSummary c;
        c.class_id = class_id;
        c.title = titles[class_id];
        const auto requirement = profile.classes.find(class_id);
        c.requirement = requirement == profile.classes.end() ? "" : requirement->second;
        c.tally = group.tally;
        if (group.tally.applicable() == 0) {
            c.verdict = Judgement::not_applicable;
            c.reasons.push_back("no planned instance applies under the profile and the claims");
        } else {
            c.verdict = judge(group, state, {}, c.reasons);
        }
        summary.classes.push_back(std::move(c));
    }

    ProfileSummary& p = summary.profile;
    p.profile_id = profile.id;
    p.tally = all.tally;
    p.rejected_claims = harness::claims_not_accepted(profile, claims);
    p.verdict = judge(all, state, p.rejected_claims, p.reasons);
    return summary;
}

TimeSplit time_split(const RunResults& run, std::chrono::nanoseconds total, std::chrono::nanoseconds cases_wall) {
    using seconds = std::chrono::duration<double>;
    TimeSplit split;
    split.total_s = seconds(total).count();
    split.outside_cases_s = std::max(0.0, seconds(total - cases_wall).count());
    std::chrono::nanoseconds in_cases{0}, in_adapter{0};
    for (const auto& result : run.results) {
        if (!result) continue;
        for (const auto& c : result->cases) {
            in_cases += c.wall;
            in_adapter += c.adapter_time;
        }
    }
    split.case_time_s = seconds(in_cases).count();
    split.adapter_s = seconds(in_adapter).count();
    split.oracle_and_harness_s = std::max(0.0, split.case_time_s - *split.adapter_s);
    return split;
}

std::optional<std::size_t> worst_case(const harness::InstanceResult& result) {
    for (std::size_t i = 0; i < result.cases.size(); ++i)
        if (result.cases[i].result.verdict == result.verdict) return i;
    return std::nullopt;
}

}  // namespace kcs::reports
