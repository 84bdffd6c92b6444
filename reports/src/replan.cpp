// Remaking a report's plan and summary (verify.hpp): a verifier trusts the
// catalog, not the report. From the catalog the report names and the
// choices it records (profile, depth, operators, claims, declined
// operators) the plan is made again with certify's own code: every planned
// instance must be listed exactly once, with the plan's parameters and
// applicability, nothing else listed, each applicable instance with one
// case per seed of the depth. The summary and the certificate are then
// computed from the recorded verdicts with certify's own code too, the
// signer taken from the trusted key that verified (a development key never
// certifies), and must equal what the report records.
#include <map>
#include <set>

#include "kcs/harness/plan.hpp"
#include "kcs/reports/recorded_run.hpp"
#include "verify_checks.hpp"

namespace kcs::reports::detail {

namespace {

std::optional<RunState> state_of(const Json& text) {
    for (const RunState s : {RunState::in_progress, RunState::interrupted, RunState::finished})
        if (text == to_string(s)) return s;
    return std::nullopt;
}

// The first member of `expected` that `recorded` gives otherwise, as
// "NAME: recorded X, remade Y", a verdict before the rest; empty when they agree.
std::string first_difference(const Json& recorded, const Json& expected) {
    std::vector<std::string> keys;
    if (expected.contains("verdict")) keys.push_back("verdict");
    for (const auto& [key, value] : expected.items())
        if (key != "verdict") keys.push_back(key);
    for (const auto& key : keys) {
        const Json got = recorded.contains(key) ? recorded.at(key) : Json();
        if (got != expected.at(key)) return key + ": recorded " + got.dump() + ", remade " + expected.at(key).dump();
    }
    return {};
}

// The recorded summary's verdicts, counts and reasons against those remade.
void compare_summary(const Json& recorded, const Json& remade, CappedFailures& problems) {
    const Json recorded_classes = recorded.value("classes", Json::array());
    const Json& remade_classes = remade.at("classes");
    if (recorded_classes.size() != remade_classes.size())
        problems.add("summary: " + std::to_string(recorded_classes.size()) + " classes recorded, the plan has " +
                     std::to_string(remade_classes.size()));
    for (std::size_t i = 0; i < std::min(recorded_classes.size(), remade_classes.size()); ++i) {
        const std::string diff = first_difference(recorded_classes[i], remade_classes[i]);
        if (!diff.empty()) problems.add("summary: class " + remade_classes[i].value("class", "?") + " " + diff);
    }
    for (const char* part : {"profile", "certificate"}) {
        const std::string diff = first_difference(recorded.value(part, Json::object()), remade.at(part));
        if (!diff.empty()) problems.add(std::string("summary: ") + part + " " + diff);
    }
}

}  // namespace

void replan(const Json& statement, Verification& v) {
    const Json& p = statement.at("predicate");
    const spec::Catalog& catalog = *v.catalog;
    CappedFailures problems(v, "plan");
    const std::size_t before = v.failures.size();

    RunDescription run;
    run.catalog = &catalog;
    run.protocols = v.protocols;
    run.profile = catalog.find_profile(p.at("profile").value("id", ""));
    run.depth = catalog.find_depth(p.at("depth").value("id", ""));
    if (!run.profile || !run.depth)
        return problems.add("plan: profile " + p.at("profile").value("id", Json()).dump() + " or depth " +
                            p.at("depth").value("id", Json()).dump() + " is not in spec " + catalog.spec_version);
    const spec::Depth& depth = *run.depth;
    // The depth's parameters: a report cannot promote itself to a deeper run.
    if (p.at("depth").value("seeds", Json()) != depth.seeds)
        problems.add("depth.seeds: recorded " + p.at("depth").value("seeds", Json()).dump() + ", depth " + depth.id +
                     " runs " + std::to_string(depth.seeds));
    if (p.at("depth").value("certifiable", Json()) != depth.certifiable)
        problems.add("depth.certifiable: recorded " + p.at("depth").value("certifiable", Json()).dump() + ", depth " +
                     depth.id + " is " + (depth.certifiable ? "" : "not ") + "certifiable");
    const Json& seeds = p.at("seeds");
    if (seeds.value("per_instance", Json()) != depth.seeds)
        problems.add("seeds.per_instance: recorded " + seeds.value("per_instance", Json()).dump() + ", depth " +
                     depth.id + " runs " + std::to_string(depth.seeds));
    const std::uint64_t base_seed = seeds.value("base", std::uint64_t{0});

    run.claims = claims_of(p.at("claims"));
    for (const auto& claim : catalog.claims)
        if (!run.claims.values.count(claim.id)) problems.add("claims.values: the catalog's claim " + claim.id + " is missing");
    // Which claims the run did not need follows from the operators the adapter declined.
    harness::Claims scoped = run.claims;
    scoped.not_needed.clear();
    const auto declined = p.at("adapter").value("declined_operators", std::vector<std::string>{});
    harness::scope_claims(scoped, catalog, declined);
    if (scoped.not_needed != run.claims.not_needed)
        problems.add("claims.not_needed: recorded " + Json(run.claims.not_needed).dump() +
                     ", the declined operators give " + Json(scoped.not_needed).dump());
    run.operators = p.value("operators", std::vector<std::string>{});
    const Json filter = p.value("filter", Json::object());
    run.include = filter.value("include", std::vector<std::string>{});
    run.exclude = filter.value("exclude", std::vector<std::string>{});

    const auto plan = harness::make_plan(
        {&catalog, run.profile, run.depth, run.claims, run.operators, v.protocols, run.include, run.exclude});
    const std::string digest = harness::plan_digest(plan);
    if (p.at("plan").value("digest", "") != digest)
        problems.add("plan.digest: recorded " + p.at("plan").value("digest", Json()).dump() + ", the catalog, claims "
                     "and choices give " + digest);
    const Json* shard = p.contains("shard") ? &p.at("shard") : nullptr;
    if (p.at("plan").value("instances", Json()) != plan.size())
        problems.add("plan.instances: recorded " + p.at("plan").value("instances", Json()).dump() + ", the plan has " +
                     std::to_string(plan.size()));

    // Every planned instance exactly once (a shard lists its part of them).
    std::map<std::string, std::size_t> index_of;
    for (std::size_t i = 0; i < plan.size(); ++i) index_of[plan[i].id] = i;
    RunResults results;
    std::vector<const Json*> recorded_of;  // results.plan's instances as recorded
    std::set<std::string> listed;
    const auto state = state_of(p.value("state", Json()));
    if (!state) problems.add("state: " + p.value("state", Json()).dump() + " is not a run state kcs records");
    for (const auto& recorded : p.at("instances")) {
        const std::string id = recorded.value("id", "");
        const auto it = index_of.find(id);
        if (it == index_of.end()) {
            problems.add("instance " + id + ": not in the plan");
            continue;
        }
        if (!listed.insert(id).second) {
            problems.add("instance " + id + ": listed twice");
            continue;
        }
        const harness::Instance& planned = plan[it->second];
        if (const std::string diff = first_difference(recorded, planned_instance_json(planned)); !diff.empty())
            problems.add("instance " + id + ": " + diff);
        if (!planned.applicable && recorded.value("not_applicable_reason", "") != planned.not_applicable_reason)
            problems.add("instance " + id + ": not_applicable_reason differs from the plan's (\"" +
                         planned.not_applicable_reason + "\")");
        results.plan.push_back(planned);
        recorded_of.push_back(&recorded);
        if (recorded.value("verdict", Json()).is_null()) {
            if (state == RunState::finished) problems.add("instance " + id + ": no verdict in a finished run");
            results.results.emplace_back();
            continue;
        }
        std::string bad;
        auto result = result_of(results.plan.back(), recorded, bad);
        if (!result) {
            problems.add("instance " + id + ": " + bad + " is not one kcs records");
            results.results.emplace_back();
            continue;
        }
        // Applicability is the plan's alone: a probe cannot decide it after the fact where a verifier could see it.
        if (!planned.applicable && (result->verdict != harness::Verdict::not_applicable || !result->cases.empty()))
            problems.add("instance " + id + ": the plan makes it NOT_APPLICABLE, recorded " +
                         recorded.at("verdict").dump() + " with " + std::to_string(result->cases.size()) + " cases");
        if (planned.applicable) {
            if (result->verdict == harness::Verdict::not_applicable)
                problems.add("instance " + id + ": recorded NOT_APPLICABLE, but the plan makes it applicable");
            bool seeds_ok = result->cases.size() == static_cast<std::size_t>(depth.seeds);
            harness::Verdict worst = harness::Verdict::pass;
            for (std::size_t j = 0; j < result->cases.size(); ++j) {
                seeds_ok = seeds_ok && result->cases[j].seed == base_seed + j;
                worst = harness::worst_of(worst, result->cases[j].result.verdict);
            }
            if (!seeds_ok)
                problems.add("instance " + id + ": " + std::to_string(result->cases.size()) +
                             " cases, not one for each of the depth's " + std::to_string(depth.seeds) +
                             " seeds from " + std::to_string(base_seed));
            else if (worst != result->verdict)
                problems.add("instance " + id + ": recorded " + recorded.at("verdict").dump() + ", its cases give " +
                             std::string(harness::to_string(worst)));
        }
        results.results.push_back(std::move(result));
    }
    if (shard) {
        if (shard->value("instances", Json()) != listed.size())
            problems.add("shard.instances: recorded " + shard->value("instances", Json()).dump() + ", " +
                         std::to_string(listed.size()) + " listed");
        ShardRecord record;
        record.index = shard->value("index", 0);
        record.count = shard->value("count", 1);
        run.shard = record;
    } else if (listed.size() != plan.size()) {
        std::string missing;
        std::size_t n = 0;
        for (const auto& instance : plan)
            if (!listed.count(instance.id) && ++n <= 3) missing += (missing.empty() ? "" : ", ") + instance.id;
        problems.add("plan: " + std::to_string(plan.size()) + " instances planned, " + std::to_string(listed.size()) +
                     " listed; missing " + missing + (n > 3 ? " and " + std::to_string(n - 3) + " more" : ""));
    }

    // The signer that certifies is the key that verified, with its kind
    // from the trusted key file; a bare Statement keeps what it records.
    const Json signer = p.value("signer", Json());
    if (v.signature_valid)
        run.signer = Signer{v.signer_keyid, v.signer_label, v.signer_development};
    else if (signer.is_object())
        run.signer = Signer{signer.value("keyid", ""), signer.value("label", ""), signer.value("development", true)};
    if (v.signature_valid && signer.is_object() && signer.value("development", Json()) != v.signer_development)
        problems.add(std::string("signer.development: recorded ") + signer.value("development", Json()).dump() +
                     ", but the trusted key file says the key is " +
                     (v.signer_development ? "a development key" : "not a development key"));
    // Primary causes from the recorded FAILs and their assumptions, by the rule that wrote them.
    const auto consequences = consequence_json(results);
    for (std::size_t i = 0; i < consequences.size(); ++i)
        if (recorded_of[i]->value("consequence_of", Json()) != consequences[i])
            problems.add("instance " + results.plan[i].id + ": consequence_of: recorded " +
                         recorded_of[i]->value("consequence_of", Json()).dump() + ", the run's FAILs give " +
                         consequences[i].dump());
    if (state && !problems.any()) {
        const Json remade = summary_section(run, results, *state, ReportTimes{});
        compare_summary(p.value("summary", Json::object()), remade, problems);
    }
    if (v.failures.size() == before)
        v.passed.push_back("plan: the " + std::to_string(plan.size()) + " instances of the plan remade from spec " +
                           catalog.spec_version + ", each listed once with its parameters and applicability; the "
                           "primary causes, summary and certificate remade from the verdicts");
}

}  // namespace kcs::reports::detail
