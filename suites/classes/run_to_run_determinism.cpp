// C-ORD-02 Run-to-run determinism (spec/v1/classes/C-ORD-02.yaml), for
// every operator row_problems.hpp knows. One problem per seed, at the
// functional test's shape with the reduced axis lengthened, runs `runs`
// times in the same buffers and `runs` times in freshly allocated ones,
// each of those after a call on another problem; the outputs' SHA-256
// hashes must take at most max_distinct values (distinct_outputs).
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

// Protocol step 1: "with the reduced axis lengthened to 4096 ... so that
// tail paths run too"; values "from normal(0, 1)".
constexpr std::int64_t kReducedAxisLength = 4096;
constexpr std::string_view kValues = "normal(0,1)";

// Attention's rows (queries) each cost T * D twice over, 64 times a matmul
// row at the functional test's shapes; its rows are independent, so 16 of
// them run every path a row has while keeping the case as cheap as matmul's.
constexpr std::int64_t kAttentionRows = 16;

ProblemShape determinism_shape(const RowOperator& op, const spec::Catalog& catalog) {
    ProblemShape shape = op.functional_test_shape(catalog);
    shape.length = kReducedAxisLength;
    if (op.id() == "attention") shape.rows = std::min(shape.rows, kAttentionRows);
    return shape;
}

// Half of every extent: every tensor changes size, so every buffer is
// given back and allocated anew around it.
ProblemShape other_size(const ProblemShape& shape) {
    const auto half = [](std::int64_t extent) { return std::max<std::int64_t>(1, extent / 2); };
    return {half(shape.rows), half(shape.length), shape.columns ? half(shape.columns) : 0};
}

// What one case ran: the problem, the other problem called between the
// fresh-buffer runs, and the hashes of every run of the problem.
struct DeterminismRuns {
    RowProblem problem;
    RowProblem other;
    std::uint64_t other_seed = 0;
    int runs_per_condition = 0;
};

}  // namespace

harness::CaseResult determinism_probe(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const RowOperator op(instance);
    const auto params = DistinctOutputsParams::from(instance.contract->tolerance);
    const ref::Distribution values = ref::parse_distribution(kValues);

    // Step 1: one problem for this seed; the other problem from another seed.
    const ProblemShape shape = determinism_shape(op, context.catalog());
    const std::uint64_t other_seed = previous_seed(context.seed());
    DeterminismRuns r{op.generate(shape, values, context.seed()), op.generate(other_size(shape), values, other_seed),
                      other_seed, determinism_runs_per_condition(context, params)};

    // Steps 2-3: `runs` times under each condition.
    const DeterminismConditions runs =
        run_conditions(context, r.problem.invocation, r.other.invocation, r.runs_per_condition);
    const DeterminismRecord record{
        op.describe(r.problem.shape), op.describe(r.other.shape) + ", seed " + std::to_string(other_seed),
        r.runs_per_condition, [&](std::size_t i) { return op.dependencies(r.problem, i); }};
    return determinism_verdict(instance, runs, params, record);
}

}  // namespace kcs::suites
