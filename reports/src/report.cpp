// The Statement and its predicate, field by field as
// reports/schema/report-v1.schema.json describes them.
#include "kcs/reports/report.hpp"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "kcs/harness/primary_cause.hpp"

namespace kcs::reports {

namespace {

using seconds = std::chrono::duration<double>;

Json optional_number(const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); }

Json optional_string(const std::string& value) { return value.empty() ? Json(nullptr) : Json(value); }

Json subject_json(const Subject& s) {
    return {
        {"name", s.name}, {"digest", {{"sha256", s.sha256}}}, {"annotations", {{"role", s.role}, {"path", s.path}}}};
}

Json worst_json(const harness::WorstElement& w) {
    return {{"index", w.index},
            {"inputs", w.inputs},
            {"expected", number_json(w.expected)},
            {"expected_hex", hex_float(w.expected)},
            {"got", number_json(w.got)},
            {"got_bits", w.got_bits},
            {"error", number_json(w.error)},
            {"bound", number_json(w.bound)}};
}

Json evidence_json(const harness::Evidence& e) {
    return {{"figure_name", e.figure_name},
            {"figure", number_json(e.figure)},
            {"bound", number_json(e.bound)},
            {"worst", e.worst ? worst_json(*e.worst) : Json(nullptr)},
            {"details", e.details.is_object() ? e.details : Json{{"value", e.details}}},
            {"judged", {{"count", e.judged.count}, {"unit", e.judged.unit}}},
            {"adapter_calls", e.adapter_calls}};
}

Json counts_json(const Tally& t) {
    return {{"planned", t.planned},
            {"applicable", t.applicable()},
            {"not_applicable", t.not_applicable},
            {"executed", t.executed()},
            {"pass", t.pass},
            {"fail", t.fail},
            {"consequence", t.consequence},
            {"crash", t.crash},
            {"timeout", t.timeout},
            {"error", t.error},
            {"unsupported", t.unsupported},
            {"inconclusive", t.inconclusive},
            {"missing", t.missing}};
}

Json summary_json(const Summary& summary) {
    Json classes = Json::array();
    for (const auto& c : summary.classes) {
        classes.push_back({{"class", c.class_id},
                           {"title", c.title},
                           {"requirement", c.requirement},
                           {"verdict", std::string(to_string(c.verdict))},
                           {"reasons", c.reasons},
                           {"counts", counts_json(c.tally)},
                           {"coverage", optional_number(c.tally.coverage())},
                           {"pass_rate", optional_number(c.tally.pass_rate())}});
    }
    const ProfileSummary& p = summary.profile;
    Json rejected = Json::array();
    for (const auto& r : p.rejected_claims)
        rejected.push_back({{"id", r.id}, {"value", r.value}, {"accepted", r.accepted}});
    return {{"classes", classes},
            {"profile",
             {{"id", p.profile_id},
              {"verdict", std::string(to_string(p.verdict))},
              {"reasons", p.reasons},
              {"rejected_claims", rejected},
              {"counts", counts_json(p.tally)},
              {"coverage", optional_number(p.tally.coverage())},
              {"pass_rate", optional_number(p.tally.pass_rate())}}}};
}

// Why this report is not a certificate (spec/SPEC.md section 8); granted
// when there is no reason.
Json certificate_json(const RunDescription& run, const ProfileSummary& profile, RunState state) {
    Json reasons = Json::array();
    if (!run.signer)
        reasons.push_back("unsigned (a development run)");
    else if (run.signer->development)
        reasons.push_back("signed with a development key (" + run.signer->label + ")");
    if (!run.depth->certifiable) reasons.push_back("depth " + run.depth->id + " is not certifiable");
    if (!run.operators.empty()) reasons.push_back("restricted to some operators (--op)");
    if (!run.include.empty() || !run.exclude.empty())
        reasons.push_back("restricted to some instances (--include, --exclude)");
    if (run.shard)
        reasons.push_back("one shard (" + std::to_string(run.shard->index) + " of " + std::to_string(run.shard->count) +
                          ") of the plan: kcs merge joins the shards' reports into the report of the whole plan");
    if (state != RunState::finished) reasons.push_back("the run did not finish");
    if (profile.verdict != Judgement::conformant)
        reasons.push_back("profile " + profile.profile_id + " is " + std::string(to_string(profile.verdict)));
    return {{"granted", reasons.empty()}, {"reasons", reasons}};
}

Json adapter_json(const AdapterRecord& a) {
    Json info = nullptr;
    if (a.info) {
        info = {{"adapter_name", a.info->adapter_name},
                {"adapter_version", a.info->adapter_version},
                {"vendor", a.info->vendor},
                {"device", a.info->device},
                {"driver_version", a.info->driver_version},
                {"notes", a.info->notes}};
    }
    return {{"argument", a.argument},
            {"library", a.library.string()},
            {"options", a.options},
            {"info", info},
            {"info_error", optional_string(a.info_error)},
            {"declined_operators", a.declined_operators}};
}

Json claims_json(const harness::Claims& c) {
    return {{"file", c.file.empty() ? Json(nullptr) : Json(c.file.string())},
            {"digest", optional_string(c.digest)},
            {"values", c.values},
            {"declared", c.declared},
            {"not_needed", c.not_needed}};
}

}  // namespace

Json planned_instance_json(const harness::Instance& instance) {
    const auto& config = instance.config;
    return {{"id", instance.id},
            {"class", instance.contract->id},
            {"operator", instance.op->id},
            {"function", instance.function ? Json(*instance.function) : Json(nullptr)},
            {"config",
             {{"id", config.id()},
              {"inputs", config.inputs},
              {"output", config.output},
              {"accumulate", config.accumulate ? Json(*config.accumulate) : Json(nullptr)}}},
            {"variant", instance.variant},
            {"parameters", instance.parameters.is_object() ? instance.parameters : Json::object()},
            {"requirement", instance.requirement},
            {"applicable", instance.applicable},
            {"measures", instance.measures()}};
}

Json instance_json(const harness::Instance& instance, const std::optional<harness::InstanceResult>& result,
                   const std::function<std::string(std::uint64_t seed)>& repro, Json consequence) {
    Json cases = Json::array();
    Json worst = nullptr, instance_repro = nullptr, adapter_s = nullptr;
    double wall_s = 0;
    if (result) {
        double adapter_sum = 0;
        for (const auto& c : result->cases) {
            cases.push_back(case_json(c, repro(c.seed)));
            wall_s += seconds(c.wall).count();
            adapter_sum += seconds(c.adapter_time).count();
        }
        if (!result->cases.empty()) adapter_s = adapter_sum;
        if (const auto w = worst_case(*result)) {
            worst = *w;
            instance_repro = repro(result->cases[*w].seed);
        }
    }
    // A probe whose protocol could not run says why in its case (SPEC.md section 5).
    std::string not_applicable_reason = instance.not_applicable_reason;
    if (not_applicable_reason.empty() && result && result->verdict == harness::Verdict::not_applicable &&
        !result->cases.empty())
        not_applicable_reason = result->cases.front().result.message;
    Json out = planned_instance_json(instance);
    out.update(Json{{"not_applicable_reason", not_applicable_reason},
                    {"verdict", result ? Json(std::string(harness::to_string(result->verdict))) : Json(nullptr)},
                    {"consequence_of", std::move(consequence)},
                    {"cases", cases},
                    {"worst_case", worst},
                    {"repro", instance_repro},
                    {"wall_s", wall_s},
                    {"adapter_s", adapter_s}});
    if (instance.sweep && instance.sweep->fold.empty())
        out["sweep_part"] = {{"index", instance.sweep->index}, {"count", instance.sweep->count}};
    return out;
}

Json number_json(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

std::string hex_float(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%a", value);
    return text;
}

std::string utc_timestamp(std::chrono::system_clock::time_point t) {
    const auto since_epoch = t.time_since_epoch();
    const std::time_t whole = std::chrono::duration_cast<std::chrono::seconds>(since_epoch).count();
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since_epoch).count() % 1000;
    std::tm utc{};
    gmtime_r(&whole, &utc);
    char text[80];  // room for any int the format could print
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return text;
}

std::vector<Json> consequence_json(const RunResults& results) {
    std::vector<Json> out;
    for (const auto& c : harness::primary_causes(results.plan, results.results))
        out.push_back(c ? Json{{"instance", c->cause}, {"reason", c->reason}} : Json(nullptr));
    return out;
}

Json case_json(const harness::CaseRecord& record, const std::string& repro) {
    const auto& r = record.result;
    return {{"seed", record.seed},
            {"verdict", std::string(harness::to_string(r.verdict))},
            {"violated_class", r.violated_class},
            {"signature", r.signature},
            {"assumes", r.assumes},
            {"message", r.message},
            {"evidence", evidence_json(r.evidence)},
            {"wall_s", seconds(record.wall).count()},
            {"adapter_s", seconds(record.adapter_time).count()},
            {"repro", repro}};
}

Json signer_json(const std::optional<Signer>& signer) {
    if (!signer) return nullptr;
    return {{"keyid", signer->keyid}, {"label", signer->label}, {"development", signer->development}};
}

Json summary_section(const RunDescription& run, const RunResults& results, RunState state, const ReportTimes& times) {
    const Summary summary = summarize(results, *run.profile, run.claims, state);
    const TimeSplit split = time_split(results, times.total, times.cases_wall);
    Json section = summary_json(summary);
    section["certificate"] = certificate_json(run, summary.profile, state);
    section["time"] = {{"total_s", split.total_s},
                       {"outside_cases_s", split.outside_cases_s},
                       {"case_time_s", split.case_time_s},
                       {"adapter_s", optional_number(split.adapter_s)},
                       {"oracle_and_harness_s", optional_number(split.oracle_and_harness_s)}};
    return section;
}

Json build_report(const RunDescription& run, const RunResults& results, RunState state, const ReportTimes& times) {
    Json subjects = Json::array();
    for (const auto& s : run.subjects) subjects.push_back(subject_json(s));

    Json instances = Json::array();
    auto consequences = consequence_json(results);
    for (std::size_t i = 0; i < results.plan.size(); ++i) {
        const auto& result = i < results.results.size() ? results.results[i] : std::optional<harness::InstanceResult>{};
        const auto repro = [&](std::uint64_t seed) { return run.repro.line(results.plan[i].id, seed); };
        instances.push_back(instance_json(results.plan[i], result, repro, std::move(consequences[i])));
    }

    const spec::Catalog& catalog = *run.catalog;
    Json predicate = {
        {"kcs", {{"version", run.kcs_version}}},
        {"signed", run.signer.has_value()},
        {"signer", signer_json(run.signer)},
        {"state", std::string(to_string(state))},
        {"complete", state == RunState::finished},
        {"spec",
         {{"version", catalog.spec_version},
          {"digest", spec::catalog_digest(catalog)},
          {"catalog", catalog.root.string()}}},
        {"profile", {{"id", run.profile->id}, {"title", run.profile->title}}},
        {"depth", {{"id", run.depth->id}, {"seeds", run.depth->seeds}, {"certifiable", run.depth->certifiable}}},
        {"operators", run.operators},
        {"filter", {{"include", run.include}, {"exclude", run.exclude}}},
        {"plan",
         {{"digest", run.plan_digest}, {"instances", run.shard ? run.shard->plan_instances : results.plan.size()}}},
        {"claims", claims_json(run.claims)},
        {"adapter", adapter_json(run.adapter)},
        {"environment", run.environment},
        {"invocation", {{"command_line", run.command_line}, {"working_directory", run.working_directory}}},
        {"seeds", {{"base", run.base_seed}, {"per_instance", run.seeds}}},
        {"limits", {{"call_timeout_s", seconds(run.call_timeout).count()}, {"jobs", run.jobs}}},
        {"started", utc_timestamp(run.started)},
        {"ended", utc_timestamp(times.ended)},
        {"instances", instances},
        {"summary", summary_section(run, results, state, times)},
    };
    if (const auto& shard = run.shard)
        predicate["shard"] = {{"index", shard->index},
                              {"count", shard->count},
                              {"instances", results.plan.size()},
                              {"cost_model", {{"source", shard->cost_source}, {"digest", shard->cost_digest}}},
                              {"expected_s", shard->expected_s}};
    if (run.mustpass) predicate["mustpass"] = *run.mustpass;
    if (run.protocols && run.protocols != run.catalog)
        predicate["spec"]["protocols"] = {{"version", run.protocols->spec_version},
                                          {"digest", spec::catalog_digest(*run.protocols)},
                                          {"supplied", harness::supplied_parameters(results.plan)}};
    return {{"_type", std::string(kStatementType)},
            {"subject", subjects},
            {"predicateType", std::string(kPredicateType)},
            {"predicate", predicate}};
}

std::string report_text(const Json& statement) { return statement.dump(2) + "\n"; }

}  // namespace kcs::reports
