// The report of one certification run: an in-toto Statement v1 whose
// predicate (type kPredicateType) records what ran, on what, with which
// claims, every instance's verdict with its evidence and repro command, and
// the summary. reports/schema/report-v1.schema.json is its exact shape.
// A run given a key records its signer in the predicate ("signed": true,
// "signer") and kcs certify wraps the Statement in a DSSE envelope signed
// by that key (dsse.hpp); without one the Statement says it is unsigned.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/host/operation.hpp"
#include "kcs/reports/repro.hpp"
#include "kcs/reports/subjects.hpp"
#include "kcs/reports/summary.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

using Json = spec::Json;

inline constexpr std::string_view kStatementType = "https://in-toto.io/Statement/v1";
// The project's own name for its predicate; the last part is its version,
// changed with any incompatible change of the schema.
inline constexpr std::string_view kPredicateType = "urn:kcs:predicate:conformance-report:v1";

struct AdapterRecord {
    std::string argument;              // as the user gave it: a name or a path
    std::filesystem::path library;     // the file it resolved to
    std::vector<std::string> options;  // key=value, in the order given
    std::optional<host::AdapterInfo> info;
    std::string info_error;  // why info() failed, when it did
    // The catalog operators whose every configuration supports() declined.
    std::vector<std::string> declined_operators;
};

// The key a run's report is signed with, as the report names it.
struct Signer {
    std::string keyid;
    std::string label;
    bool development = false;  // a development key's report is never a certificate
};

// The part of a plan a sharded run covers (kcs certify --shard I/N): its
// report lists only those instances; kcs merge joins the N reports.
struct ShardRecord {
    int index = 0;
    int count = 1;
    std::size_t plan_instances = 0;  // in the whole plan
    std::string cost_source;         // the cost model that cut the plan (harness/shard.hpp)
    std::string cost_digest;
    double expected_s = 0;  // this shard's instances by that model
};

// Everything about a run that stays the same while it runs.
struct RunDescription {
    const spec::Catalog* catalog = nullptr;
    // Under an older release: the catalog whose protocols the probes
    // implement, which supplied the parameters the release left unstated
    // (harness::PlanRequest::protocols; "spec.protocols" in the predicate).
    const spec::Catalog* protocols = nullptr;
    const spec::Profile* profile = nullptr;
    const spec::Depth* depth = nullptr;
    harness::Claims claims;
    std::vector<std::string> operators;  // the --op restriction; empty: every operator
    std::vector<std::string> include, exclude;  // --include, --exclude: glob patterns over instance ids
    std::string plan_digest;
    AdapterRecord adapter;
    std::vector<Subject> subjects;
    std::string kcs_version;
    std::vector<std::string> command_line;
    std::string working_directory;
    Json environment = Json::object();  // capture_environment()
    std::uint64_t base_seed = 1;
    int seeds = 0;
    std::chrono::milliseconds call_timeout{0};
    int jobs = 1;
    std::chrono::system_clock::time_point started;
    ReproCommand repro;
    std::optional<Signer> signer;  // none: an unsigned development run
    std::optional<ShardRecord> shard;  // none: the whole plan
    // At a certifiable depth: the release's must-pass list and which of its
    // instances the plan lacks ("mustpass" in the predicate); none elsewhere.
    std::optional<Json> mustpass;
};

struct ReportTimes {
    std::chrono::system_clock::time_point ended;
    std::chrono::nanoseconds total{0};       // steady-clock wall time of the whole run
    std::chrono::nanoseconds cases_wall{0};  // while cases ran
};

// The Statement. Every instance of the plan appears, missing ones with a
// null verdict; `state` says whether the run finished.
Json build_report(const RunDescription& run, const RunResults& results, RunState state, const ReportTimes& times);

// The predicate's "summary": the class and profile verdicts, why the report
// is or is not a certificate, and where the time went. build_report's, and
// kcs merge's for the joined shards.
Json summary_section(const RunDescription& run, const RunResults& results, RunState state, const ReportTimes& times);

// The predicate's "signer": the key's id, label and kind; null when unsigned.
Json signer_json(const std::optional<Signer>& signer);

// The bytes of report.json: the Statement as indented JSON and a newline.
// They are also the payload kcs certify --key and kcs sign put in the
// DSSE envelope.
std::string report_text(const Json& statement);

// What the plan alone says of an instance (id, class, operator, function,
// config, variant, parameters, requirement, applicability, what it
// measures): the part of its record that kcs verify remakes from the catalog.
Json planned_instance_json(const harness::Instance& instance);

// An instance's record: what the plan says of it, its verdict, its cases
// (each with its repro line, `repro(seed)`), times and consequence_of; a
// part of a split sweep (Instance::SweepSplit) says which ("sweep_part").
Json instance_json(const harness::Instance& instance, const std::optional<harness::InstanceResult>& result,
                   const std::function<std::string(std::uint64_t seed)>& repro, Json consequence);

// An instance's "consequence_of" (SPEC.md section 5, "Primary cause"):
// {"instance": id, "reason": text} for a FAIL explained by another FAIL of
// the run, else null; one entry per plan instance, from
// harness::primary_causes. Certify, merge and kcs verify write or compare it.
std::vector<Json> consequence_json(const RunResults& results);

// One case as the report holds it (kcs run --json prints the same).
Json case_json(const harness::CaseRecord& record, const std::string& repro);

// A number as JSON: finite values as numbers; NaN and infinities, which
// JSON lacks, as the strings "nan", "inf", "-inf".
Json number_json(double value);

// The exact value of a double as a C99 hex float ("0x1.8p+1").
std::string hex_float(double value);

// "2024-05-01T12:00:00.123Z".
std::string utc_timestamp(std::chrono::system_clock::time_point t);

}  // namespace kcs::reports
