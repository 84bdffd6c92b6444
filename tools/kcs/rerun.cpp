#include "rerun.hpp"

#include <algorithm>
#include <deque>
#include <iostream>
#include <map>
#include <random>
#include <string_view>

#include "kcs/harness/figures.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/reports/recorded_run.hpp"
#include "kcs/reports/report.hpp"
#include "probes.hpp"
#include "run_setup.hpp"

namespace kcs::cli {

namespace {

struct RecordedCase {
    const harness::Instance* instance;
    reports::Json recorded;  // the case as the report holds it
};

// The evidence fields that a deterministic kernel reproduces bit for bit.
const char* const kReproducedFields[] = {"figure_name", "figure", "bound", "worst", "details", "judged", "adapter_calls"};

// A field as a rerun compares it: a figure by its one name; a sweep's details without where its time
// went (details.sweep_timing's seconds and resumed chunk), which no rerun
// repeats; its part (the chunks and their tally) stays.
reports::Json compared(const char* field, reports::Json value) {
    // A report of an earlier kcs may name the figure as it was named then.
    if (std::string_view(field) == "figure_name" && value.is_string())
        return harness::figure_shown_name(value.get<std::string>());
    if (std::string_view(field) == "details" && value.is_object() && value.contains("sweep_timing"))
        for (const char* time : {"wall_s", "waiting_for_device_s", "judging_s", "resumed_from_chunk"})
            value["sweep_timing"].erase(time);
    return value;
}

}  // namespace

int rerun_cases(const reports::Verification& v, const RerunChoice& choice) {
    const reports::Json& p = v.statement.at("predicate");
    const spec::Catalog& catalog = *v.catalog;
    const spec::Profile* profile = catalog.find_profile(p.at("profile").value("id", ""));
    const spec::Depth* depth = catalog.find_depth(p.at("depth").value("id", ""));
    const harness::Claims claims = reports::claims_of(p.at("claims"));
    const auto operators = p.value("operators", std::vector<std::string>{});
    const auto plan = harness::make_plan({&catalog, profile, depth, claims, operators, v.protocols, {}, {}});
    std::map<std::string, const harness::Instance*> by_id;
    for (const auto& instance : plan) by_id[instance.id] = &instance;

    // Every case that judged something: the ones a rerun can compare. A
    // shard's part of a sweep (sweep_part) is run again as that part.
    std::deque<harness::Instance> parts;
    std::vector<RecordedCase> judged;
    for (const auto& inst : p.at("instances")) {
        const harness::Instance* instance = by_id.at(inst.value("id", ""));
        if (inst.contains("sweep_part")) {
            harness::Instance& part = parts.emplace_back(*instance);
            part.sweep = harness::Instance::SweepSplit{inst.at("sweep_part").value("index", std::uint64_t{0}),
                                                       inst.at("sweep_part").value("count", std::uint64_t{1}), {}};
            instance = &part;
        }
        for (const auto& c : inst.value("cases", reports::Json::array()))
            if (c.value("verdict", "") == "PASS" || c.value("verdict", "") == "FAIL") judged.push_back({instance, c});
    }
    std::mt19937_64 random(choice.seed);
    std::shuffle(judged.begin(), judged.end(), random);
    judged.resize(std::min<std::size_t>(judged.size(), choice.cases));

    AdapterChoice adapter_choice;
    adapter_choice.options = p.at("adapter").value("options", std::vector<std::string>{});
    adapter_choice.timeout_s = choice.timeout_s;
    const auto library = host::resolve_adapter(choice.adapter);  // AdapterError: exit 2 in main
    host::IsolatedAdapter adapter(library, isolation_options(adapter_choice));
    // Bit for bit only where the report claims the kernel is deterministic.
    const bool deterministic = claims.is_true("deterministic");

    std::size_t differ = 0;
    for (const auto& [instance, recorded] : judged) {
        const std::uint64_t seed = recorded.value("seed", std::uint64_t{0});
        harness::CaseRecord record;
        record.seed = seed;
        record.result = harness::run_case(*instance, suites::find_probe(instance->contract->id, instance->op->id),
                                          catalog, claims, adapter, seed);
        const reports::Json rerun = reports::case_json(record, "");
        std::string difference;
        if (rerun.at("verdict") != recorded.at("verdict"))
            difference = "verdict: recorded " + recorded.at("verdict").dump() + ", rerun " + rerun.at("verdict").dump();
        else if (deterministic)
            for (const char* field : kReproducedFields) {
                const reports::Json was = compared(field, recorded.at("evidence").at(field));
                const reports::Json now = compared(field, rerun.at("evidence").at(field));
                if (was != now) {
                    difference = std::string("evidence.") + field + ": recorded " + was.dump().substr(0, 200) +
                                 ", rerun " + now.dump().substr(0, 200);
                    break;
                }
            }
        const std::string where = instance->id + " seed " + std::to_string(seed);
        if (difference.empty()) {
            std::cout << "same    rerun " << where << ": " << rerun.at("verdict").get<std::string>()
                      << (deterministic ? ", evidence bit for bit" : ", the verdict (deterministic: false)") << "\n";
        } else {
            ++differ;
            std::cout << "DIFFERS rerun " << where << ": " << difference << "\n";
        }
    }
    std::cout << (differ ? "RERUN DIFFERS " : "RERUN SAME    ") << judged.size() << " case"
              << (judged.size() == 1 ? "" : "s") << " run again on " << library.string() << " (seed "
              << choice.seed << "), " << differ << " differ\n";
    return differ ? 1 : 0;
}

}  // namespace kcs::cli
