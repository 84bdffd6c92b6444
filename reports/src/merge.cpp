#include "kcs/reports/merge.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>

#include "kcs/reports/report_file.hpp"
#include "kcs/reports/recorded_run.hpp"
#include "kcs/spec/sha256.hpp"
#include "kcs/spec/strict_json.hpp"

namespace kcs::reports {

namespace {

using Clock = std::chrono::system_clock;

const Json& at(const Json& json, const std::string& pointer) {
    static const Json null;
    const Json::json_pointer p(pointer);
    return json.contains(p) ? json.at(p) : null;
}

std::string name_of(const ShardReport& s) {
    const Json& shard = at(s.statement, "/predicate/shard");
    return s.file.string() + " (shard " + at(shard, "/index").dump() + " of " + at(shard, "/count").dump() + ")";
}

// Every shard must be a finished shard's report.
void check_is_finished_shard(const ShardReport& s) {
    if (s.statement.value("predicateType", "") != kPredicateType)
        throw MergeError(s.file.string() + ": not a kcs report (predicateType is not " + std::string(kPredicateType) +
                         ")");
    const Json& shard = at(s.statement, "/predicate/shard");
    if (!shard.is_object() || !at(shard, "/index").is_number_unsigned() || !at(shard, "/count").is_number_unsigned())
        throw MergeError(s.file.string() +
                         ": not the report of a shard (it has no predicate.shard); kcs merge joins the reports "
                         "kcs certify --shard I/N writes");
    const Json& state = at(s.statement, "/predicate/state");
    if (state != "finished")
        throw MergeError(name_of(s) + ": the run did not finish (state " + state.dump() +
                         "); run that shard again");
    if (at(shard, "/instances") != at(s.statement, "/predicate/instances").size())
        throw MergeError(name_of(s) + ": its shard record counts " + at(shard, "/instances").dump() +
                         " instances but it lists " + std::to_string(at(s.statement, "/predicate/instances").size()));
}

// What must be equal in every shard of one run, and what to call it.
const std::pair<const char*, const char*> kSameRun[] = {
    {"kcs version", "/predicate/kcs/version"},
    {"catalog digest", "/predicate/spec/digest"},
    {"profile", "/predicate/profile/id"},
    {"depth", "/predicate/depth/id"},
    {"operators (--op)", "/predicate/operators"},
    {"instance filter (--include, --exclude)", "/predicate/filter"},
    {"plan digest", "/predicate/plan/digest"},
    {"plan size", "/predicate/plan/instances"},
    {"claims digest", "/predicate/claims/digest"},
    {"claims", "/predicate/claims/values"},
    {"claims not needed", "/predicate/claims/not_needed"},
    {"adapter options", "/predicate/adapter/options"},
    {"adapter and device (info)", "/predicate/adapter/info"},
    {"declined operators", "/predicate/adapter/declined_operators"},
    {"seeds", "/predicate/seeds"},
    {"call timeout", "/predicate/limits/call_timeout_s"},
    {"shard count", "/predicate/shard/count"},
    {"cost model digest", "/predicate/shard/cost_model/digest"},
};

// The subjects' digests by role (adapter library, claims, catalog, kcs):
// the paths may differ from machine to machine, the bytes may not.
Json subject_digests(const Json& statement) {
    Json digests = Json::object();
    for (const auto& s : statement.value("subject", Json::array()))
        digests[at(s, "/annotations/role").get<std::string>()] = at(s, "/digest/sha256");
    return digests;
}

void check_same_run(const ShardReport& first, const ShardReport& other) {
    const auto differs = [&](const std::string& what, const Json& mine, const Json& theirs) {
        throw MergeError(name_of(other) + ": its " + what + " " + mine.dump() + " differs from " + name_of(first) +
                         "'s " + theirs.dump() + ": not a shard of the same run");
    };
    for (const auto& [what, pointer] : kSameRun)
        if (at(other.statement, pointer) != at(first.statement, pointer))
            differs(what, at(other.statement, pointer), at(first.statement, pointer));
    if (subject_digests(other.statement) != subject_digests(first.statement))
        differs("subjects (adapter library, claims, catalog, kcs; by sha256)", subject_digests(other.statement),
                subject_digests(first.statement));
}

// Each index 0..count-1 exactly once; returns the shards by index.
std::vector<const ShardReport*> by_index(const std::vector<ShardReport>& shards) {
    const std::size_t count = at(shards.front().statement, "/predicate/shard/count").get<std::size_t>();
    std::vector<const ShardReport*> slots(count, nullptr);
    for (const auto& s : shards) {
        const std::size_t index = at(s.statement, "/predicate/shard/index").get<std::size_t>();
        if (index >= count) throw MergeError(name_of(s) + ": its index is not below its count");
        if (slots[index])
            throw MergeError(slots[index]->file.string() + " and " + s.file.string() + " are both shard " +
                             std::to_string(index) + " of " + std::to_string(count));
        slots[index] = &s;
    }
    std::string missing, given;
    for (std::size_t i = 0; i < count; ++i) {
        if (!slots[i]) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
        else given += (given.empty() ? "" : ", ") + std::to_string(i) + " " + slots[i]->file.string();
    }
    if (!missing.empty())
        throw MergeError("shard " + missing + " of " + std::to_string(count) + " missing (given: " + given +
                         "); run it and merge again");
    return slots;
}

std::chrono::nanoseconds seconds_of(const Json& value) {
    const double s = value.is_number() ? value.get<double>() : 0.0;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

// "2024-05-01T12:00:00.123Z" as utc_timestamp writes it.
Clock::time_point time_of(const Json& text, const std::string& where) {
    std::tm utc{};
    int millis = 0;
    if (!text.is_string() || std::sscanf(text.get<std::string>().c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ",
                                         &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour, &utc.tm_min,
                                         &utc.tm_sec, &millis) != 7)
        throw MergeError(where + ": time " + text.dump() + " is not a kcs timestamp");
    utc.tm_year -= 1900;
    utc.tm_mon -= 1;
    return Clock::from_time_t(timegm(&utc)) + std::chrono::milliseconds(millis);
}

// The instance whose sweep the shards cut, from its parts' records: every
// part present once, each part's tally folded by the probe (inputs.fold_sweep)
// into the record the unsplit sweep would have written, its times the sum
// of the parts'.
void fold_parts(const harness::Instance& planned, std::size_t index,
                const std::map<std::uint64_t, std::pair<const ShardReport*, const Json*>>& by_part, std::uint64_t count,
                const Json& first, const spec::Catalog* catalog, const harness::Claims& claims, const MergeInputs& inputs,
                std::vector<const ShardReport*>& holder, std::vector<Json>& recorded, RunResults& results) {
    if (holder[index])
        throw MergeError("instance " + planned.id + " is whole in " + name_of(*holder[index]) + " and cut in parts elsewhere");
    std::string missing;
    for (std::uint64_t p = 0; p < count; ++p)
        if (!by_part.count(p)) missing += (missing.empty() ? "" : ", ") + std::to_string(p);
    if (!missing.empty())
        throw MergeError("part " + missing + " of the " + std::to_string(count) + " of " + planned.id +
                         " is in no shard");
    // A part that judged nothing (UNSUPPORTED, ERROR, CRASH, TIMEOUT...) is
    // what an unsharded run would have recorded for the whole sweep: the
    // worst such part's record stands for the instance.
    const std::pair<const ShardReport*, const Json*>* unjudged = nullptr;
    harness::Verdict unjudged_verdict = harness::Verdict::pass;
    for (const auto& [p, where] : by_part) {
        const auto verdict = verdict_of(at(*where.second, "/verdict"));
        if (!verdict)
            throw MergeError(name_of(*where.first) + ": " + planned.id + ": verdict " +
                             at(*where.second, "/verdict").dump() + " is not one kcs records");
        if (*verdict == harness::Verdict::pass || *verdict == harness::Verdict::fail) continue;
        if (!unjudged || harness::worst_of(unjudged_verdict, *verdict) != unjudged_verdict) {
            unjudged = &where;
            unjudged_verdict = *verdict;
        }
    }
    if (unjudged) {
        Json record = *unjudged->second;
        record.erase("sweep_part");
        std::string bad;
        auto result = result_of(planned, record, bad);
        if (!result) throw MergeError(name_of(*unjudged->first) + ": " + planned.id + ": " + bad + " is not one kcs records");
        recorded[index] = std::move(record);
        results.results[index] = std::move(result);
        holder[index] = unjudged->first;
        return;
    }
    if (!inputs.fold_sweep) throw MergeError(planned.id + " is cut in parts, and this merge cannot fold them");
    harness::Instance folding = planned;
    folding.sweep = harness::Instance::SweepSplit{0, count, {}};
    std::vector<harness::InstanceResult> part_results;
    for (const auto& [p, where] : by_part) {
        const auto& [shard, record] = where;
        const Json& part = at(*record, "/cases/0/evidence/details/sweep_timing/part");
        if (!part.is_object())
            throw MergeError(name_of(*shard) + ": part " + std::to_string(p) + " of " + planned.id +
                             " records no tally (evidence.details.sweep_timing.part)");
        folding.sweep->fold.push_back(part);
        std::string bad;
        auto result = result_of(planned, *record, bad);
        if (!result) throw MergeError(name_of(*shard) + ": " + planned.id + ": " + bad + " is not one kcs records");
        part_results.push_back(std::move(*result));
    }
    const Json& library = at(first, "/predicate/adapter/library");
    const Json& options = at(first, "/predicate/adapter/options");
    const Json& base_seed = at(first, "/predicate/seeds/base");
    const Json& seeds = at(first, "/predicate/seeds/per_instance");
    if (!library.is_string() || !options.is_array() || !base_seed.is_number_unsigned() || !seeds.is_number_unsigned())
        throw MergeError("the shards record no adapter library, options or seeds to fold " + planned.id + " with");
    SweepFold fold{&folding,
                   catalog,
                   claims,
                   library.get<std::string>(),
                   options.get<std::vector<std::string>>(),
                   base_seed.get<std::uint64_t>(),
                   seeds.get<int>()};
    harness::InstanceResult result = inputs.fold_sweep(fold);
    // Parts that each judged their chunks fold into a judgement; anything
    // else is a fold that failed (parts cut unlike this merge's, a probe
    // error), never a verdict to sign.
    for (const auto& c : result.cases)
        if (c.result.verdict != harness::Verdict::pass && c.result.verdict != harness::Verdict::fail)
            throw MergeError("folding the " + std::to_string(count) + " parts of " + planned.id + " failed: " +
                             std::string(harness::to_string(c.result.verdict)) + " " + c.result.message);
    result.instance = &planned;
    for (std::size_t c = 0; c < result.cases.size(); ++c) {
        result.cases[c].wall = {};
        result.cases[c].adapter_time = {};
        for (const auto& part : part_results)
            if (c < part.cases.size()) {
                result.cases[c].wall += part.cases[c].wall;
                result.cases[c].adapter_time += part.cases[c].adapter_time;
            }
    }
    // The parts' repro lines are the instance's: each runs the whole sweep again.
    const Json& cases = at(*by_part.begin()->second.second, "/cases");
    const auto repro = [&](std::uint64_t seed) {
        for (const auto& c : cases)
            if (c.value("seed", std::uint64_t{0}) == seed) return c.value("repro", std::string());
        return std::string();
    };
    recorded[index] = instance_json(planned, result, repro, nullptr);
    results.results[index] = std::move(result);
    holder[index] = by_part.begin()->second.first;
}

}  // namespace

ShardReport read_shard_report(const std::filesystem::path& file_or_folder) {
    std::error_code ec;
    const auto file =
        std::filesystem::is_directory(file_or_folder, ec) ? file_or_folder / "report.json" : file_or_folder;
    ShardReport shard{file, nullptr, ""};
    const std::string text = read_whole_file<MergeError>(file);
    try {
        shard.statement = spec::parse_json_strict(text);
    } catch (const spec::JsonError& e) {
        throw MergeError(file.string() + ": " + e.what());
    }
    shard.digest = sha256_digest(text);
    return shard;
}

Json merge_shards(const std::vector<ShardReport>& shards, const MergeInputs& inputs) {
    if (shards.empty()) throw MergeError("no shard reports given");
    for (const auto& s : shards) check_is_finished_shard(s);
    for (const auto& s : shards) check_same_run(shards.front(), s);
    const auto slots = by_index(shards);
    const Json& first = slots.front()->statement;

    // The plan, made again: the shards' instances must be exactly its own.
    const std::string catalog_digest = at(first, "/predicate/spec/digest").get<std::string>();
    const spec::Catalog* catalog = inputs.catalog(catalog_digest);
    if (!catalog)
        throw MergeError("this kcs carries no catalog with digest " + catalog_digest +
                         ", which the shards were run against (--spec names its folder)");
    RunDescription run;
    run.catalog = catalog;
    run.profile = catalog->find_profile(at(first, "/predicate/profile/id").get<std::string>());
    run.depth = catalog->find_depth(at(first, "/predicate/depth/id").get<std::string>());
    if (!run.profile || !run.depth)
        throw MergeError("the catalog " + catalog_digest + " lacks the shards' profile or depth");
    run.claims = claims_of(at(first, "/predicate/claims"));
    run.operators = at(first, "/predicate/operators").get<std::vector<std::string>>();
    const Json filter = first.at("predicate").value("filter", Json::object());
    run.include = filter.value("include", std::vector<std::string>{});
    run.exclude = filter.value("exclude", std::vector<std::string>{});
    run.signer = inputs.signer;
    if (const Json* protocols = first.at("predicate").at("spec").contains("protocols")
                                    ? &first.at("predicate").at("spec").at("protocols")
                                    : nullptr) {
        const std::string digest = protocols->value("digest", "");
        run.protocols = inputs.catalog(digest);
        if (!run.protocols)
            throw MergeError("this kcs carries no catalog with digest " + digest +
                             ", whose protocols supplied the shards' parameters");
    }
    harness::PlanRequest request{catalog,       run.profile,  run.depth,  run.claims, run.operators,
                                 run.protocols, run.include,  run.exclude};
    RunResults results;
    results.plan = harness::make_plan(request);
    const std::string recorded_digest = at(first, "/predicate/plan/digest").get<std::string>();
    if (harness::plan_digest(results.plan) != recorded_digest)
        throw MergeError("the shards record plan " + recorded_digest + ", but this kcs makes plan " +
                         harness::plan_digest(results.plan) + " from the same catalog, claims and choices; " +
                         "merge with the kcs that ran them");

    std::map<std::string, std::size_t> index_of;
    for (std::size_t i = 0; i < results.plan.size(); ++i) index_of[results.plan[i].id] = i;
    std::vector<const ShardReport*> holder(results.plan.size(), nullptr);
    Json instances = Json::array(), merged_from = Json::array();
    std::vector<Json> recorded(results.plan.size());
    results.results.resize(results.plan.size());
    auto started = Clock::time_point::max(), ended = Clock::time_point::min();
    std::chrono::nanoseconds cases_wall{0};
    // The parts of sweeps the shards cut: by plan index, part index -> (shard, record).
    std::map<std::size_t, std::map<std::uint64_t, std::pair<const ShardReport*, const Json*>>> parts;
    std::map<std::size_t, std::uint64_t> cut_in;
    for (const ShardReport* s : slots) {
        const Json& p = at(s->statement, "/predicate");
        for (const auto& instance : at(p, "/instances")) {
            const std::string id = instance.value("id", "");
            const auto it = index_of.find(id);
            if (it == index_of.end()) throw MergeError(name_of(*s) + ": instance " + id + " is not in the plan");
            if (instance.contains("sweep_part")) {
                const Json& index = at(instance, "/sweep_part/index");
                const Json& parts_in = at(instance, "/sweep_part/count");
                const Json& shards_in = at(s->statement, "/predicate/shard/count");
                if (!index.is_number_unsigned() || !parts_in.is_number_unsigned() || parts_in.get<std::uint64_t>() < 2 ||
                    parts_in.get<std::uint64_t>() > shards_in.get<std::uint64_t>())
                    throw MergeError(name_of(*s) + ": " + id + ": sweep_part " + at(instance, "/sweep_part").dump() +
                                     " is not a part of a sweep cut in 2 to " + shards_in.dump() + " parts");
                const std::uint64_t part = index.get<std::uint64_t>();
                const std::uint64_t count = parts_in.get<std::uint64_t>();
                if (cut_in.emplace(it->second, count).first->second != count)
                    throw MergeError(name_of(*s) + ": " + id + " is cut in " + std::to_string(count) +
                                     " parts here and in " + std::to_string(cut_in[it->second]) + " elsewhere");
                if (part >= count || !parts[it->second].emplace(part, std::make_pair(s, &instance)).second)
                    throw MergeError(name_of(*s) + ": part " + std::to_string(part) + " of " + std::to_string(count) +
                                     " of " + id + " is given twice or is not a part of that many");
                continue;
            }
            if (holder[it->second])
                throw MergeError("instance " + id + " is in both " + name_of(*holder[it->second]) + " and " +
                                 name_of(*s));
            holder[it->second] = s;
            recorded[it->second] = instance;
            std::string bad;
            results.results[it->second] = result_of(results.plan[it->second], instance, bad);
            if (!results.results[it->second])
                throw MergeError(name_of(*s) + ": " + id + ": " + bad + " is not one kcs records");
        }
        const auto shard_started = time_of(at(p, "/started"), name_of(*s)), shard_ended = time_of(at(p, "/ended"), name_of(*s));
        started = std::min(started, shard_started);
        ended = std::max(ended, shard_ended);
        const Json& time = at(p, "/summary/time");
        cases_wall = std::max(cases_wall, seconds_of(time.value("total_s", Json())) -
                                              seconds_of(time.value("outside_cases_s", Json())));
        merged_from.push_back({{"index", at(p, "/shard/index")},
                               {"count", at(p, "/shard/count")},
                               {"report", s->digest},
                               {"file", s->file.string()},
                               {"instances", at(p, "/instances").size()},
                               {"started", at(p, "/started")},
                               {"ended", at(p, "/ended")},
                               {"environment", at(p, "/environment")},
                               {"invocation", at(p, "/invocation")}});
    }
    for (const auto& [i, by_part] : parts)
        fold_parts(results.plan[i], i, by_part, cut_in.at(i), first, catalog, run.claims, inputs, holder, recorded, results);
    std::vector<std::string> missing;
    for (std::size_t i = 0; i < results.plan.size(); ++i)
        if (!holder[i]) missing.push_back(results.plan[i].id);
    if (!missing.empty()) {
        std::string listed;
        for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i) listed += "\n  " + missing[i];
        if (missing.size() > 5) listed += "\n  ... and " + std::to_string(missing.size() - 5) + " more";
        throw MergeError(std::to_string(missing.size()) + " instance(s) of the plan are in no shard:" + listed);
    }
    // A shard saw only its part of the plan: the primary causes are the whole run's.
    auto consequences = consequence_json(results);
    for (std::size_t i = 0; i < recorded.size(); ++i) {
        recorded[i]["consequence_of"] = std::move(consequences[i]);
        instances.push_back(std::move(recorded[i]));
    }

    const ReportTimes times{ended, ended - started, cases_wall};
    Json merged = first;
    Json& predicate = merged["predicate"];
    predicate.erase("shard");
    predicate["instances"] = std::move(instances);
    predicate["signed"] = run.signer.has_value();
    predicate["signer"] = signer_json(run.signer);
    predicate["invocation"] = {{"command_line", inputs.command_line},
                               {"working_directory", inputs.working_directory}};
    predicate["started"] = utc_timestamp(started);
    predicate["ended"] = utc_timestamp(ended);
    predicate["merged_from"] = std::move(merged_from);
    predicate["summary"] = summary_section(run, results, RunState::finished, times);
    return merged;
}

}  // namespace kcs::reports
