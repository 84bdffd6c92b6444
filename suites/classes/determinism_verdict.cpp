#include "determinism_verdict.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

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

// Stable in the same buffers but not across placements is the narrower
// signature; a change among runs in one placement is the order varying per call.
std::string signature_of(const OutputHashTally& tally, const DistinctOutputsParams& params) {
    return static_cast<int>(tally.distinct_within(kSameBuffers)) > params.max_distinct ? "multiple-output-hashes"
                                                                                         : "placement-dependent-output";
}

// Step 2 asks also for alignment offsets of 4, 64 and 4096 bytes and for
// runs under concurrent load; the harness places every tensor itself (64-byte
// aligned, after its guard zone) and runs one call at a time, so a probe can
// offer neither. The evidence says so rather than implying it ran them.
spec::Json conditions_not_run() {
    return {"alignment offsets of 4, 64 and 4096 bytes (the harness places tensors)",
            "concurrent load (the harness runs one call at a time)"};
}

harness::Evidence run_evidence(const OutputHashTally& tally, const DistinctOutputsParams& params,
                               const DeterminismRecord& record) {
    harness::Evidence evidence;
    evidence.figure_name = "distinct output hashes";
    evidence.figure = static_cast<double>(tally.distinct());
    evidence.bound = params.max_distinct;
    evidence.judged = {static_cast<std::uint64_t>(tally.runs()), "runs"};
    evidence.details["shape"] = record.problem;
    evidence.details["runs_per_condition"] = {{kSameBuffers, record.runs_per_condition},
                                              {kFreshBuffers, record.runs_per_condition}};
    evidence.details["other_problem"] = record.other_problem;
    evidence.details["conditions_not_run"] = conditions_not_run();
    evidence.details["hashes"] = hash_groups(tally);
    return evidence;
}

}  // namespace

int determinism_runs_per_condition(const harness::ProbeContext& context, const DistinctOutputsParams& params) {
    return static_cast<int>(std::max<std::int64_t>(params.runs, context.integer("runs")));
}

harness::CaseResult determinism_verdict(const harness::Instance& instance, const OutputHashTally& tally,
                                        const DistinctOutputsParams& params, const DeterminismRecord& record) {
    harness::Evidence evidence = run_evidence(tally, params, record);
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
    return failed(instance, signature_of(tally, params),
                  summary + " (max " + std::to_string(params.max_distinct) + "); runs " +
                      std::to_string(first.first_run) + " and " + std::to_string(second.first_run) + " differ in " +
                      std::to_string(comparison.differing) + " of " + std::to_string(comparison.compared) +
                      " elements",
                  std::move(evidence));
}

}  // namespace kcs::suites
