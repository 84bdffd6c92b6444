#include "determinism_verdict.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <utility>

#include "kcs/harness/figures.hpp"
#include "ordering_results.hpp"

namespace kcs::suites {

namespace {

using tolerance::DistinctOutputsParams;
using tolerance::OutputHashTally;

spec::Json hash_groups(const OutputHashTally& tally) {
    spec::Json groups = spec::Json::array();
    for (const auto& g : tally.groups())
        groups.push_back({{"sha256", tolerance::hex(g.hash)},
                          {"runs", g.runs},
                          {"first_run", g.first_run},
                          {"first_condition", g.first_condition}});
    return groups;
}

}  // namespace

std::string determinism_signature(const OutputHashTally& tally, const DistinctOutputsParams& params,
                                  spec::Json& figures) {
    for (const auto& c : {kSameBuffers, kFreshBuffers, kUnderLoad}) figures[c] = tally.distinct_within(c);
    const auto within = [&](const std::string& c) { return static_cast<int>(tally.distinct_within(c)) > params.max_distinct; };
    if (within(kSameBuffers) || within(kUnderLoad)) return "multiple-output-hashes";
    // The same buffers stable: placement-dependent when a hash first
    // appeared in the fresh buffers.
    for (const auto& g : tally.groups())
        if (g.first_condition == kFreshBuffers) return "placement-dependent-output";
    // Each condition stable, the load's hash its own: neither signature
    // describes that (the order does not change per call), so no default.
    return "unmatched";
}

namespace {

// The alignment offsets the fresh buffers take in turn (protocol step 2).
constexpr std::uint64_t kAlignmentOffsets[] = {4, 64, 4096};

// The bandwidth-heavy call of the load: an elementwise add of 2^22 f32
// elements (48 MiB moved per call), whose values do not matter. Built once
// and shared, read-only, by every case: its inputs are 32 MiB.
const harness::Invocation& bandwidth_call() {
    static const harness::Invocation add = [] {
        constexpr std::int64_t n = std::int64_t{1} << 22;
        harness::Invocation call{"elementwise", "add", 0, {}, {}, {{KCS_DTYPE_F32, {n}}}};
        call.inputs = {harness::HostTensor::zeros(KCS_DTYPE_F32, {n}), harness::HostTensor::zeros(KCS_DTYPE_F32, {n})};
        return call;
    }();
    return add;
}

harness::Evidence run_evidence(const DeterminismConditions& runs, const DistinctOutputsParams& params,
                               const DeterminismRecord& record) {
    const OutputHashTally& tally = runs.tally;
    harness::Evidence evidence;
    evidence.figure_name = harness::figures::distinct_hashes.name;
    evidence.figure = static_cast<double>(tally.distinct());
    evidence.bound = params.max_distinct;
    evidence.judged = {static_cast<std::uint64_t>(tally.runs()), "runs"};
    evidence.details["shape"] = record.problem;
    evidence.details["runs_per_condition"] = record.runs_per_condition;
    evidence.details["conditions"] = runs.conditions;
    evidence.details["other_problem"] = record.other_problem;
    evidence.details["conditions_not_run"] = runs.not_run;
    evidence.details["hashes"] = hash_groups(tally);
    return evidence;
}

}  // namespace

std::vector<DeterminismConditions> run_conditions(harness::ProbeContext& context,
                                                  const std::vector<DeterminismProblem>& problems, int runs) {
    if (problems.empty()) throw std::invalid_argument("run_conditions: no problem to run");
    const bool smoke = context.instance().depth == "smoke";
    std::vector<DeterminismConditions> out(problems.size());
    for (std::size_t p = 0; p < problems.size(); ++p) {
        DeterminismConditions& c = out[p];
        for (int i = 0; i < runs; ++i) c.tally.add(context.run(problems[p].problem), kSameBuffers);
        c.conditions[kSameBuffers] = {{"runs", runs}};
        spec::Json offsets = spec::Json::array();
        for (int i = 0; i < runs; ++i) {
            context.run(problems[p].other);
            harness::TensorPlacement placement;
            if (!smoke)
                placement.alignment_offset = kAlignmentOffsets[static_cast<std::size_t>(i) % std::size(kAlignmentOffsets)];
            c.tally.add(context.run(problems[p].problem, placement), kFreshBuffers);
            if (i < static_cast<int>(std::size(kAlignmentOffsets)) && !smoke) offsets.push_back(placement.alignment_offset);
        }
        c.conditions[kFreshBuffers] = {{"runs", runs}, {"alignment_offsets", offsets}};
    }
    if (smoke) {
        for (auto& c : out) {
            c.not_run.push_back("alignment offsets of 4, 64 and 4096 bytes: depth smoke places fresh buffers at the "
                                "default 1 KiB; quick and full run the offsets");
            c.not_run.push_back("concurrent load: depth smoke runs one call at a time; quick and full run the load");
        }
        return out;
    }
    std::vector<const harness::Invocation*> load{&problems.front().other};
    const bool heavy = context.supported(bandwidth_call());
    if (heavy) load.push_back(&bandwidth_call());
    const auto record = context.under_load(load, [&] {
        for (std::size_t p = 0; p < problems.size(); ++p)
            for (int i = 0; i < runs; ++i) out[p].tally.add(context.run(problems[p].problem), kUnderLoad);
    });
    for (auto& c : out) {
        c.conditions[kUnderLoad] = {{"runs", runs},
                                    {"load", heavy ? "the other problem and elementwise add f32 [4194304], in turn"
                                                   : "the other problem (the adapter declines elementwise add f32)"},
                                    {"load_calls_during_runs", record.calls}};
        if (problems.size() > 1) c.conditions[kUnderLoad]["load_shared_by"] = "every shape of the case, in turn";
        if (!record.failure.empty()) c.conditions[kUnderLoad]["load_failure"] = record.failure;
        if (record.calls == 0)
            c.not_run.push_back("concurrent load: the second worker completed no call while the runs ran" +
                                (record.failure.empty() ? std::string() : " (" + record.failure + ")"));
    }
    return out;
}

int determinism_runs_per_condition(const harness::ProbeContext& context, const DistinctOutputsParams& params) {
    return static_cast<int>(std::max<std::int64_t>(params.runs, context.integer("runs")));
}

harness::CaseResult determinism_verdict(const harness::Instance& instance, const DeterminismConditions& runs,
                                        const DistinctOutputsParams& params, const DeterminismRecord& record) {
    const OutputHashTally& tally = runs.tally;
    harness::Evidence evidence = run_evidence(runs, params, record);
    const std::string summary = std::to_string(tally.distinct()) + " distinct output hash(es) over " +
                                std::to_string(tally.runs()) + " runs of one problem " + record.problem;
    if (tally.holds(params)) return passed(instance, summary, std::move(evidence));

    // Two differing outputs: the first hash's and the second's.
    const auto& first = tally.groups()[0];
    const auto& second = tally.groups()[1];
    const harness::HostTensor& expected = first.outputs[0];
    const harness::HostTensor& got = second.outputs[0];
    const auto comparison = tolerance::compare_bitwise(tolerance::whole(expected), tolerance::whole(got));
    const std::size_t index = comparison.widest.element;
    evidence.worst = differing_element(comparison.widest, expected, index, got, index, index,
                                       record.dependencies(index));
    evidence.details["differing_elements"] = comparison.differing;
    evidence.details["differences"] = differences_json(comparison, expected.dtype, 0);
    evidence.details["compared_runs"] = {first.first_run, second.first_run};
    spec::Json figures = spec::Json::object();
    const std::string signature = determinism_signature(tally, params, figures);
    evidence.details["signature_figures"] = {{"distinct_hashes_by_condition", figures}};
    return failed(instance, signature,
                  summary + " (max " + std::to_string(params.max_distinct) + "); runs " +
                      std::to_string(first.first_run) + " and " + std::to_string(second.first_run) + " differ in " +
                      std::to_string(comparison.differing) + " of " + std::to_string(comparison.compared) +
                      " elements",
                  std::move(evidence));
}

harness::CaseResult determinism_sweep_verdict(std::vector<harness::CaseResult> per_shape) {
    if (per_shape.empty()) throw std::invalid_argument("determinism_sweep_verdict: no shape was run");
    spec::Json shapes_run = spec::Json::array();
    std::uint64_t runs = 0;
    for (const auto& r : per_shape) {
        shapes_run.push_back({{"shape", r.evidence.details.at("shape")},
                              {"verdict", std::string(harness::to_string(r.verdict))},
                              {"distinct_hashes", r.evidence.figure},
                              {"runs", r.evidence.judged.count}});
        runs += r.evidence.judged.count;
    }
    const auto decider = std::find_if(per_shape.begin(), per_shape.end(),
                                      [](const harness::CaseResult& r) { return r.verdict != harness::Verdict::pass; });
    harness::CaseResult result = std::move(decider == per_shape.end() ? per_shape.front() : *decider);
    if (decider == per_shape.end() && per_shape.size() > 1)
        result.message += "; the same at each of the " + std::to_string(per_shape.size()) + " shapes";
    result.evidence.judged.count = runs;
    result.evidence.details["shapes_run"] = std::move(shapes_run);
    return result;
}

}  // namespace kcs::suites
