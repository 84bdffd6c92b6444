// kcs plan: the contract instances a run of an adapter would judge, with
// what each measures and whether the claims make it applicable. The adapter
// is named but not loaded: the plan depends on the catalog, profile, depth
// and claims only.
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "run_setup.hpp"
#include "kcs/harness/claims.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/harness/shard.hpp"
#include "probes.hpp"

namespace kcs::cli {

namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

void print_header(const spec::Catalog& catalog, const harness::PlanRequest& request, const std::string& adapter,
                  const harness::Claims& claims, bool claims_given) {
    const spec::Depth& depth = *request.depth;
    std::cout << "catalog  " << catalog.root.string() << "  spec_version " << catalog.spec_version << "  "
              << spec::catalog_digest(catalog) << "\n"
              << "profile  " << request.profile->id << " (" << request.profile->title << ")\n"
              << "depth    " << depth.id << ": " << depth.seeds << " seeds, "
              << (depth.certifiable ? "certifiable" : "not certifiable") << "\n"
              << "adapter  " << adapter << " (not loaded: the plan does not depend on it)\n";
    if (claims.file.empty())
        std::cout << "claims   catalog defaults (no claims file for this adapter; pass --claims FILE)\n";
    else
        std::cout << "claims   " << claims.file.string() << (claims_given ? "" : " (the adapter's own)") << "  "
                  << claims.digest << "\n";
    for (const auto& r : harness::claims_not_accepted(*request.profile, claims)) {
        std::cout << "note     profile " << request.profile->id << " does not accept " << r.id << ": " << r.value
                  << (claims.declared.count(r.id) ? "" : ", the catalog default") << " (it accepts "
                  << joined(r.accepted) << "), so it is NON-CONFORMANT whatever the instances do\n";
    }
}

std::string status_of(const harness::Instance& i) {
    return i.applicable ? "APPLICABLE" : "N/A (" + i.not_applicable_reason + ")";
}

void print_plan(const std::vector<harness::Instance>& plan) {
    std::size_t id_width = 0, status_width = 0, applicable = 0;
    for (const auto& i : plan) {
        id_width = std::max(id_width, i.id.size());
        status_width = std::max(status_width, status_of(i).size());
        applicable += i.applicable;
    }
    std::cout << "\n";
    for (const auto& i : plan) {
        std::cout << std::left << std::setw(static_cast<int>(id_width)) << i.id << "  "
                  << std::setw(static_cast<int>(status_width)) << status_of(i) << "  " << i.measures() << "\n";
    }
    std::cout << "\n"
              << plan.size() << " instances, " << applicable << " applicable, " << plan.size() - applicable
              << " not applicable\n"
              << "plan digest " << harness::plan_digest(plan) << "\n";
}

// How `count` shards would share the plan (kcs certify --shard I/N), each
// shard's expected time by the cost model, and the run's expected wall time
// (its longest shard) beside the time with every instance kept whole.
void print_shards(const std::vector<harness::Instance>& plan, const harness::CostModel& costs, int count) {
    const auto loads = [&](const std::vector<std::vector<harness::ShardMember>>& cut) {
        std::vector<double> out;
        for (const auto& members : cut) {
            double load = 0;
            for (const auto& m : members) load += harness::expected_seconds(m, plan, costs);
            out.push_back(load);
        }
        return out;
    };
    const auto shards = harness::assign_shards(plan, costs, count, suites::splits_sweep);
    const auto load = loads(shards), whole = loads(harness::assign_shards(plan, costs, count));
    double total = 0;
    for (const auto& i : plan) total += costs.expected_seconds(i);
    std::map<std::size_t, std::uint64_t> cut;
    for (const auto& members : shards)
        for (const auto& m : members)
            if (m.parts > 1) cut[m.instance] = m.parts;
    std::cout << std::fixed << std::setprecision(1) << "\nshards   " << count << ", cut by the cost model "
              << costs.source() << "\n"
              << "expected " << *std::max_element(load.begin(), load.end())
              << " s wall (the longest shard; the plan's " << total << " s over " << count << " is " << total / count
              << " s); " << *std::max_element(whole.begin(), whole.end()) << " s with every sweep kept whole\n";
    for (const auto& [i, parts] : cut)
        std::cout << "cut      " << plan[i].id << ": " << parts << " parts of " << costs.expected_seconds(plan[i]) / parts
                  << " s\n";
    for (std::size_t s = 0; s < shards.size(); ++s)
        std::cout << "shard    " << s << ": " << shards[s].size() << " members, " << load[s] << " s\n";
}

// The plan as JSON: what the header and the instance lines say.
nlohmann::json plan_json(const RunSetup& setup, const std::string& adapter,
                         const std::vector<harness::Instance>& plan) {
    const harness::PlanRequest& request = setup.request;
    const harness::Claims& claims = request.claims;
    nlohmann::json instances = nlohmann::json::array();
    for (const auto& i : plan)
        instances.push_back({{"id", i.id},
                             {"applicable", i.applicable},
                             {"not_applicable_reason", i.applicable ? nlohmann::json() : nlohmann::json(i.not_applicable_reason)},
                             {"measures", i.measures()}});
    return {{"catalog",
             {{"folder", setup.catalog.root.string()},
              {"spec_version", setup.catalog.spec_version},
              {"digest", spec::catalog_digest(setup.catalog)}}},
            {"profile", request.profile->id},
            {"depth", request.depth->id},
            {"seeds", request.depth->seeds},
            {"adapter", adapter},
            {"operators", request.operators},
            {"claims", claims.file.empty() ? nlohmann::json()
                                           : nlohmann::json{{"file", claims.file.string()}, {"digest", claims.digest}}},
            {"instances", instances},
            {"plan_digest", harness::plan_digest(plan)}};
}

struct PlanOptions : RunChoice {
    int shards = 0;
    std::string costs;
    bool json = false;
};

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<PlanOptions>();

    auto* plan = app.add_subcommand("plan", "List the contract instances a run of an adapter would judge");
    plan->add_option("--adapter", o->adapter, "The adapter: a name (e.g. reference-cpu) or a path to its library")
        ->required();
    plan->add_option("--claims", o->claims,
                     "The adapter's claims file (default: vendors/NAME/claims.yaml for a built-in adapter, "
                     "else every claim at its catalog default)");
    plan->add_option("--profile", o->plan.profile, "The profile judged")->capture_default_str();
    plan->add_option("--depth", o->plan.depth, "smoke, quick or full")->capture_default_str();
    plan->add_option("--op", o->plan.operators, "Only this operator (repeatable; default: every operator)");
    plan->add_option("--include", o->plan.include,
                    "Only instances whose id matches this glob pattern (repeatable; * ? [...], e.g. 'v1/C-ACC-*')");
    plan->add_option("--exclude", o->plan.exclude, "No instance whose id matches this glob pattern (repeatable)");
    plan->add_option("--spec", o->spec_dir, "Catalog folder (default: the newest carried catalog)");
    auto* shards = plan->add_option("--shards", o->shards,
                     "Instead of the instances: how N shards (kcs certify --shard I/N) would share the plan, each "
                     "shard's expected time, and the run's, with sweeps longer than a shard's share cut into parts")
        ->check(CLI::Range(1, 100000));
    plan->add_option("--costs", o->costs,
                     "With --shards: a report.json of an earlier run whose instance times are the costs (default: "
                     "the table kcs carries for the depth)")
        ->needs(shards);
    plan->add_flag("--json", o->json,
                   "The plan as one JSON object: catalog, profile, depth, claims, instances (id, applicable, "
                   "why not, what it measures), plan digest")
        ->excludes(shards);
    plan->footer("One line per instance: id, APPLICABLE or N/A (why), what it measures. Exit 0, or 2 on an "
                 "unknown name, a bad claims file or an unusable --costs report.");
    plan->callback([&exit_code, o] {
        const auto setup = prepare_run(*o);
        if (!setup) {
            exit_code = 2;
            return;
        }
        const harness::PlanRequest& request = setup->request;
        // std::runtime_error for an unusable --costs report: exit 2 in main, before anything is printed.
        std::optional<harness::CostModel> costs;
        if (o->shards > 0)
            costs = o->costs.empty() ? harness::CostModel::built_in(request.depth->id)
                                     : harness::CostModel::from_report(o->costs);
        const auto plan = harness::make_plan(request);
        if (o->json) {
            std::cout << plan_json(*setup, o->adapter, plan).dump(2) << "\n";
            exit_code = 0;
            return;
        }
        print_header(setup->catalog, request, o->adapter, request.claims, setup->claims_given);
        if (costs) print_shards(plan, *costs, o->shards);
        else print_plan(plan);
        exit_code = 0;
    });
}

}  // namespace kcs::cli
