// C-ORD-02 Run-to-run determinism (spec/v1/classes/C-ORD-02.yaml) for
// gather. At each shape [R, C, N] of the `shapes` parameter, one problem
// per seed: the table from normal(0, 1) and the indices from the integers
// in [0, R - 1], repeats included (gather_problems.hpp). It runs `runs`
// times in the same buffers, `runs` times in freshly allocated ones, each
// of those after a call on another problem, and (quick, full) under load;
// the outputs' SHA-256 hashes must take at most max_distinct values
// (distinct_outputs) at every shape.
#include <algorithm>
#include <string>

#include "../tolerance/distinct_outputs.hpp"
#include "determinism_verdict.hpp"
#include "../exactness/exactness_common.hpp"
#include "gather_problems.hpp"
#include "kcs/suites/operator_io.hpp"
#include "ordering_probes.hpp"
#include "ordering_results.hpp"

namespace kcs::suites {

namespace {

std::vector<GatherShape> determinism_shapes(const harness::Instance& instance) {
    std::vector<GatherShape> shapes;
    for (const auto& s : exactness::probe_shapes(instance, 3, "[R, C, N]")) shapes.push_back({s[0], s[1], s[2]});
    return shapes;
}

// Half of every extent: every tensor changes size, so every buffer is
// given back and allocated anew around it.
GatherShape other_size(const GatherShape& s) {
    const auto half = [](std::int64_t extent) { return std::max<std::int64_t>(1, extent / 2); };
    return {half(s.rows), half(s.columns), half(s.positions)};
}

std::string describe(const GatherShape& s) {
    return "[R, C, N] = [" + std::to_string(s.rows) + ", " + std::to_string(s.columns) + ", " +
           std::to_string(s.positions) + "]";
}

// Output element i = (position p, column c) copies table[index[p], c].
std::vector<std::string> dependencies(const GatherProblem& p, std::size_t i) {
    const auto columns = static_cast<std::size_t>(p.shape.columns);
    const std::size_t position = i / columns, column = i % columns;
    const std::int64_t row = p.index.at(position);
    return {"index[" + std::to_string(position) + "]=" + std::to_string(row),
            "table[" + std::to_string(row) + "," + std::to_string(column) + "]=" +
                hex_bits(p.table, static_cast<std::size_t>(row) * columns + column)};
}

}  // namespace

harness::CaseResult gather_determinism_probe(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    if (instance.op->id != "gather")
        throw std::invalid_argument(instance.id + ": this C-ORD-02 probe measures gather only");
    const auto params = tolerance::DistinctOutputsParams::from(instance.contract->tolerance);

    const int runs = determinism_runs_per_condition(context, params);
    // Step 1: one problem per shape for this seed; the other problems from another seed.
    const std::uint64_t other_seed = previous_seed(context.seed());
    std::vector<GatherProblem> drawn, others;
    std::vector<DeterminismProblem> problems;
    for (const GatherShape& shape : determinism_shapes(instance)) {
        drawn.push_back(draw_gather(instance, shape, context.seed()));
        others.push_back(draw_gather(instance, other_size(shape), other_seed));
        problems.push_back({gather_call(instance, drawn.back(), drawn.back().index),
                            gather_call(instance, others.back(), others.back().index)});
    }

    // Steps 2-3: `runs` times under each condition, at every shape.
    const std::vector<DeterminismConditions> conditions = run_conditions(context, problems, runs);
    std::vector<harness::CaseResult> per_shape;
    for (std::size_t s = 0; s < drawn.size(); ++s) {
        const GatherProblem& problem = drawn[s];
        const DeterminismRecord record{describe(problem.shape),
                                       describe(others[s].shape) + ", seed " + std::to_string(other_seed), runs,
                                       [&](std::size_t i) { return dependencies(problem, i); }};
        per_shape.push_back(determinism_verdict(instance, conditions[s], params, record));
    }
    return determinism_sweep_verdict(std::move(per_shape));
}

}  // namespace kcs::suites
