#include "kcs/suites/functional_test.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>

#include "kcs/reference/number_text.hpp"
#include "kcs/reference/parse_distribution.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../../ordering/gather_problems.hpp"
#include "../../ordering/row_problems.hpp"

namespace kcs::suites {

namespace {

// The inputs of the test at the catalog's shape and RN_out(y*): gather's
// problems (gather_problems.hpp), and the row problems of the ordering
// probes (row_problems.hpp) for the operators they know.
struct Problem {
    std::vector<harness::HostTensor> inputs;
    std::vector<std::int64_t> output_shape;
    std::vector<std::uint64_t> reference_bits;
};

Problem make_problem(const harness::Instance& instance, const harness::Claims& claims,
                     const std::vector<long long>& shape, const ref::Distribution& distribution, std::uint64_t seed) {
    if (instance.op->id == "gather" && shape.size() == 3) {
        const GatherProblem g = draw_gather(instance, {shape[0], shape[1], shape[2]}, seed);
        const harness::Invocation call = gather_call(instance, g, g.index);
        return {call.inputs, call.outputs[0].shape, gathered_bits(g)};
    }
    std::unique_ptr<RowOperator> op;
    try {
        op = std::make_unique<RowOperator>(instance);
    } catch (const std::invalid_argument&) {
        throw std::invalid_argument("the functional test does not know operator '" + instance.op->id + "' yet");
    }
    const RowProblem problem = op->generate(op->shape(std::vector<std::int64_t>(shape.begin(), shape.end())),
                                            distribution, seed);
    return {problem.invocation.inputs, problem.invocation.outputs[0].shape, op->rounded_oracle(problem, claims)};
}

FunctionalOutcome failed(std::string message) {
    FunctionalOutcome o;
    o.message = std::move(message);
    return o;
}

}  // namespace

FunctionalOutcome run_functional_test(const spec::FunctionalTest& test, const harness::Instance& instance,
                                      const harness::Claims& claims, host::IsolatedAdapter& adapter,
                                      std::uint64_t seed) {
    const auto shape = test.shapes.find(instance.op->id);
    if (shape == test.shapes.end())
        throw std::invalid_argument("functional test " + test.id + " has no shape for " + instance.op->id);
    const Problem p = make_problem(instance, claims, shape->second, ref::parse_distribution(test.distribution), seed);

    // The reference result rounded to the output dtype, which also prefills
    // the output buffer (the memory a naive harness hands the candidate).
    harness::HostTensor reference = harness::HostTensor::zeros(abi_dtype(instance.config.output), p.output_shape);
    reference.set_all_bits(std::span<const std::uint64_t>(p.reference_bits));

    // Plain buffers: one per tensor, no guard zones.
    host::Operation op;
    op.name = instance.op->id;
    op.function = instance.function;
    op.accumulate = instance.config.accumulate ? abi_dtype(*instance.config.accumulate) : 0;
    std::vector<host::BufferHandle> buffers;
    auto place = [&](const harness::HostTensor& t) -> std::optional<host::Tensor> {
        const auto buffer = adapter.alloc(t.bytes.size());
        if (!buffer.ok() || !adapter.write(buffer.value, 0, t.bytes).ok()) return std::nullopt;
        buffers.push_back(buffer.value);
        return host::Tensor{buffer.value, 0, t.dtype, t.shape, {}};
    };
    auto release_all = [&] {
        for (const auto& b : buffers) (void)adapter.release(b);
    };
    for (const auto& input : p.inputs) {
        auto tensor = place(input);
        if (!tensor) return release_all(), failed("could not place an input on the device");
        op.inputs.push_back(*tensor);
    }
    auto output = place(reference);
    if (!output) return release_all(), failed("could not place the output on the device");
    op.outputs.push_back(*output);

    const host::CallResult run = adapter.run(op);
    harness::HostTensor got = reference;
    const host::CallResult read = run.ok() ? adapter.read(output->buffer, 0, got.bytes) : run;
    release_all();
    if (!run.ok()) return failed("run: " + run.describe());
    if (!read.ok()) return failed("read: " + read.describe());

    FunctionalOutcome outcome;
    outcome.passed = true;
    for (std::size_t i = 0; i < got.elements(); ++i) {
        const double y = got.value(i), r = reference.value(i);
        const double limit = test.atol + test.rtol * std::fabs(r);
        // A NaN agrees with a NaN reference (allclose's equal_nan): log and
        // rsqrt are NaN by definition on the negative half of N(0, 1).
        const bool both_nan = std::isnan(y) && std::isnan(r);
        const double ratio =
            both_nan ? 0 : (std::isnan(y) || std::isnan(r)) ? INFINITY : std::fabs(y - r) / limit;
        if (ratio > outcome.worst_ratio || outcome.worst_index < 0) {
            outcome.worst_ratio = ratio;
            outcome.worst_index = static_cast<std::int64_t>(i);
            outcome.got = y;
            outcome.reference = r;
        }
    }
    outcome.passed = outcome.worst_ratio <= 1.0;
    if (!outcome.passed)
        outcome.message = "allclose fails at element " + std::to_string(outcome.worst_index) + ": got " +
                          ref::number_text(outcome.got) + ", reference " + ref::number_text(outcome.reference) +
                          " (" + ref::number_text(outcome.worst_ratio) + " x the allowed difference)";
    return outcome;
}

}  // namespace kcs::suites
