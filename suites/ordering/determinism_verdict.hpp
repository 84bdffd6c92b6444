// What every C-ORD-02 (run-to-run determinism) probe shares, whatever its
// operator's data: the conditions a run is made under, the number of runs
// per condition, and the verdict on the tally of output hashes
// (distinct_outputs) with its evidence. run_to_run_determinism.cpp runs the
// row operators, gather_determinism.cpp gather.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "../tolerance/distinct_outputs.hpp"
#include "kcs/harness/probe.hpp"

namespace kcs::suites {

// Protocol step 2's conditions. The device keeps a tensor position's buffer
// only for a tensor of the same size, so a call on a problem of another
// size in between makes it free every buffer and allocate new ones for the
// next run; those fresh buffers place the tensors at the alignment offsets
// of 4, 64 and 4096 bytes in turn (TensorPlacement). Under load a second
// worker of the adapter runs the other problem, and a bandwidth-heavy
// elementwise add where the adapter offers it, for the whole condition.
inline const std::string kSameBuffers = "same buffers";
inline const std::string kFreshBuffers = "fresh buffers at alignment offsets 4, 64, 4096, after a call on another problem";
inline const std::string kUnderLoad = "under concurrent load in a second worker";

// The runs of one problem under every condition of step 2, `runs` each,
// hashed into `tally`; the evidence's record of the conditions, and of any
// left out (depth smoke runs the first two only) with why.
struct DeterminismConditions {
    tolerance::OutputHashTally tally;
    spec::Json conditions = spec::Json::object();
    spec::Json not_run = spec::Json::array();
};

// One problem of a case's shape sweep, and the problem of another size
// called between its fresh-buffer runs.
struct DeterminismProblem {
    harness::Invocation problem;
    harness::Invocation other;
};

// Step 2 for every problem of the sweep, one result each: each problem's
// runs in the same buffers and in fresh buffers, then one load (started
// once per case: it costs a bandwidth call however small the problems)
// under which every problem runs `runs` times in turn.
std::vector<DeterminismConditions> run_conditions(harness::ProbeContext& context,
                                                  const std::vector<DeterminismProblem>& problems, int runs);

// The number of runs per condition: the class parameter `runs`, never below
// the model's floor.
int determinism_runs_per_condition(const harness::ProbeContext& context,
                                   const tolerance::DistinctOutputsParams& params);

// What one case ran, described for the evidence.
struct DeterminismRecord {
    std::string problem;        // "[R, N] = [1024, 4096]"
    std::string other_problem;  // the problem called between the fresh-buffer runs, with its seed
    int runs_per_condition = 0;
    // The inputs output element i depends on (SPEC.md section 9).
    std::function<std::vector<std::string>(std::size_t)> dependencies;
};

// The signature of a tally that breaks the model (C-ORD-02's selected_when):
// multiple-output-hashes when the runs in the same buffers or under load
// vary among themselves, else placement-dependent-output when a hash first
// appeared in fresh buffers, else unmatched. `figures` gets the distinct
// hashes per condition.
std::string determinism_signature(const tolerance::OutputHashTally& tally,
                                  const tolerance::DistinctOutputsParams& params, spec::Json& figures);

// PASS when the tally holds the model; otherwise FAIL with the signature
// above, and two differing outputs as evidence.
harness::CaseResult determinism_verdict(const harness::Instance& instance, const DeterminismConditions& runs,
                                        const tolerance::DistinctOutputsParams& params,
                                        const DeterminismRecord& record);

// One verdict over the shapes of a sweep, each judged by
// determinism_verdict: the first FAIL (its message and evidence name its
// shape), else the first shape's PASS. Either way the evidence counts the
// runs of every shape and lists each shape's verdict and distinct hashes in
// details.shapes_run.
harness::CaseResult determinism_sweep_verdict(std::vector<harness::CaseResult> per_shape);

}  // namespace kcs::suites
