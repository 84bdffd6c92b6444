// C-ORD-02 Run-to-run determinism (spec/v1/classes/C-ORD-02.yaml), for
// every operator row_problems.hpp knows. At each shape of the `shapes`
// parameter, one problem per seed runs `runs` times in the same buffers,
// `runs` times in freshly allocated ones, each of those after a call on
// another problem, and (quick, full) `runs` times under load; the outputs'
// SHA-256 hashes must take at most max_distinct values (distinct_outputs)
// at every shape.
#include <algorithm>
#include <string>

#include "../tolerance/distinct_outputs.hpp"
#include "kcs/reference/parse_distribution.hpp"
#include "determinism_verdict.hpp"
#include "ordering_probes.hpp"
#include "ordering_results.hpp"
#include "row_problems.hpp"

namespace kcs::suites {

namespace {

using tolerance::DistinctOutputsParams;
using tolerance::OutputHashTally;

// Protocol step 1: values "from normal(0, 1)".
constexpr std::string_view kValues = "normal(0,1)";

// The shapes of the `shapes` parameter, in the operator's dimension order.
std::vector<ProblemShape> determinism_shapes(const RowOperator& op, const harness::Instance& instance) {
    std::vector<ProblemShape> shapes;
    for (const auto& dims : instance.parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>())
        shapes.push_back(op.shape(dims));
    if (shapes.empty()) throw std::invalid_argument(instance.id + ": the shape sweep is empty");
    return shapes;
}

// Half of every extent: every tensor changes size, so every buffer is
// given back and allocated anew around it.
ProblemShape other_size(const ProblemShape& shape) {
    const auto half = [](std::int64_t extent) { return std::max<std::int64_t>(1, extent / 2); };
    return {half(shape.rows), half(shape.length), shape.columns ? half(shape.columns) : 0};
}

// One shape's problem and the other problem called between its fresh-buffer runs.
struct ShapeProblems {
    RowProblem problem;
    RowProblem other;
};

}  // namespace

harness::CaseResult determinism_probe(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const RowOperator op(instance);
    const auto params = DistinctOutputsParams::from(instance.contract->tolerance);
    const ref::Distribution values = ref::parse_distribution(kValues);

    const int runs_per_condition = determinism_runs_per_condition(context, params);
    // Step 1: one problem per shape for this seed; the other problems from another seed.
    const std::uint64_t other_seed = previous_seed(context.seed());
    std::vector<ShapeProblems> sweep;
    std::vector<DeterminismProblem> problems;
    for (const ProblemShape& shape : determinism_shapes(op, instance)) {
        sweep.push_back({op.generate(shape, values, context.seed()), op.generate(other_size(shape), values, other_seed)});
        problems.push_back({sweep.back().problem.invocation, sweep.back().other.invocation});
    }

    // Steps 2-3: `runs` times under each condition, at every shape.
    const std::vector<DeterminismConditions> runs = run_conditions(context, problems, runs_per_condition);
    std::vector<harness::CaseResult> per_shape;
    for (std::size_t s = 0; s < sweep.size(); ++s) {
        const ShapeProblems& r = sweep[s];
        const DeterminismRecord record{
            op.describe(r.problem.shape), op.describe(r.other.shape) + ", seed " + std::to_string(other_seed),
            runs_per_condition, [&](std::size_t i) { return op.dependencies(r.problem, i); }};
        per_shape.push_back(determinism_verdict(instance, runs[s], params, record));
    }
    return determinism_sweep_verdict(std::move(per_shape));
}

}  // namespace kcs::suites
