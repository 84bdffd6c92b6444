// C-EXC-02 Out-of-bounds policy and memory domain
// (spec/v1/classes/C-EXC-02.yaml), its memory part, for every operator
// row_problems.hpp knows. Per tail shape of the `shapes` parameter: the
// previous seed's problem, then this seed's in the same buffers with fresh
// inputs. The harness checks canaries, input hashes and poison around every
// run (a breach stops the case as a FAIL of this class); the probe adds the
// stale test: this seed's output must not repeat the previous seed's
// (tolerance/memory_domain.hpp).
#include <cmath>
#include <string>
#include <vector>

#include "../tolerance/memory_domain.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/parse_distribution.hpp"
#include "kcs/suites/operator_io.hpp"
#include "ordering_probes.hpp"
#include "ordering_results.hpp"
#include "row_problems.hpp"

namespace kcs::suites {

namespace {

// Protocol step 1: inputs "from normal(0, 1)".
constexpr std::string_view kValues = "normal(0,1)";

std::vector<std::vector<std::int64_t>> tail_shapes(const harness::Instance& instance) {
    return instance.parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
}

// The two seeds of one tail shape, run in that order in the same buffers.
struct SeedPair {
    RowProblem previous;
    RowProblem current;
    harness::HostTensor previous_output;
    harness::HostTensor current_output;
    tolerance::StaleTest stale;
};

spec::Json shape_json(const RowOperator& op, const SeedPair& pair) {
    return {{"shape", op.describe(pair.current.shape)},
            {"elements", pair.stale.elements},
            {"oracle_differences", pair.stale.oracle_differences},
            {"output_differences", pair.stale.output_differences},
            {"stale_test", pair.stale.applies() ? (pair.stale.stale() ? "failed" : "held")
                                                : "not applicable: the oracles differ in fewer than " +
                                                      std::to_string(tolerance::kStaleTestMinOracleDifferences) +
                                                      " elements"}};
}

// The evidence of a stale output: the element furthest from this seed's
// RN_out(y*), with what came back there (the previous seed's value).
harness::WorstElement stale_element(const RowOperator& op, const SeedPair& pair,
                                    const std::vector<std::uint64_t>& current_oracle, ref::Format out) {
    std::size_t index = 0;
    double widest = -1;
    for (std::size_t i = 0; i < current_oracle.size(); ++i) {
        const double distance = std::fabs(ref::decode(out, current_oracle[i]) - pair.current_output.value(i));
        if (distance > widest) widest = distance, index = i;
    }
    harness::WorstElement worst;
    worst.index = static_cast<std::int64_t>(index);
    worst.inputs = op.dependencies(pair.current, index);
    worst.expected = ref::decode(out, current_oracle[index]);
    worst.got = pair.current_output.value(index);
    worst.got_bits = hex_bits(pair.current_output, index);
    worst.error = std::fabs(worst.got - worst.expected);
    worst.bound = 0;
    return worst;
}

}  // namespace

harness::CaseResult memory_domain_probe(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const RowOperator op(instance);
    const ref::Distribution values = ref::parse_distribution(kValues);
    const ref::Format out = float_format(instance.config.output);

    harness::Evidence evidence;
    evidence.figure_name = harness::figures::stale_outputs.name;
    evidence.bound = 0;
    evidence.details["seeds"] = {previous_seed(context.seed()), context.seed()};
    evidence.details["shapes"] = spec::Json::array();
    evidence.judged.unit = "elements compared across seeds";
    for (const auto& dims : tail_shapes(instance)) {
        const ProblemShape shape = op.shape(dims);
        SeedPair pair{op.generate(shape, values, previous_seed(context.seed())),
                      op.generate(shape, values, context.seed()), {}, {}, {}};
        // Step 2: seed 1, then seed 2 in the same buffers (same sizes, so the
        // device reuses them) with fresh inputs and re-poisoned outputs.
        pair.previous_output = context.run(pair.previous.invocation)[0];
        pair.current_output = context.run(pair.current.invocation)[0];
        const auto current_oracle = op.rounded_oracle(pair.current, context.claims());
        pair.stale = tolerance::stale_test(op.rounded_oracle(pair.previous, context.claims()), current_oracle,
                                           pair.previous_output, pair.current_output);
        evidence.details["shapes"].push_back(shape_json(op, pair));
        evidence.judged.count += pair.stale.elements;
        if (!pair.stale.stale()) continue;

        evidence.figure = 1;
        evidence.worst = stale_element(op, pair, current_oracle, out);
        return failed(instance, "stale-or-poison-left",
                      "at " + op.describe(shape) + " the output for seed " + std::to_string(context.seed()) +
                          " repeats the output for seed " + std::to_string(previous_seed(context.seed())) +
                          " bit for bit, although their oracles differ in " +
                          std::to_string(pair.stale.oracle_differences) + " of " +
                          std::to_string(pair.stale.elements) + " elements: a result left from the earlier call",
                      std::move(evidence));
    }
    const std::string summary = "integrity protocol held and no output repeated the previous seed's at " +
                                std::to_string(evidence.details["shapes"].size()) + " tail shape(s)";
    return passed(instance, summary, std::move(evidence));
}

}  // namespace kcs::suites
