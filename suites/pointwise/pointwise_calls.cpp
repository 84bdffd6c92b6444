#include "pointwise_calls.hpp"

#include <stdexcept>

#include "../exactness/exactness_common.hpp"
#include "kcs/reference/cast_oracle.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/reference/unary_oracle.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::pointwise {

namespace {

using harness::HostTensor;

ref::ElementwiseFunction elementwise_function(const std::string& name) {
    if (name == "add") return ref::ElementwiseFunction::add;
    if (name == "mul") return ref::ElementwiseFunction::mul;
    if (name == "maximum") return ref::ElementwiseFunction::maximum;
    if (name == "mul_add") return ref::ElementwiseFunction::mul_add;
    throw std::invalid_argument("elementwise has no function '" + name + "'");
}

const std::string& function_of(const harness::Instance& instance) {
    if (!instance.function)
        throw std::invalid_argument(instance.id + ": " + instance.op->id + " needs a function");
    return *instance.function;
}

}  // namespace

Operands operands_of(const harness::Instance& instance) {
    const std::string& op = instance.op->id;
    std::size_t count = 1;
    if (op == "elementwise") {
        const std::string& name = function_of(instance);
        count = 0;
        for (const auto& f : instance.op->functions)
            if (f.name == name) count = static_cast<std::size_t>(f.arity);
        if (count == 0) throw std::invalid_argument("elementwise has no function '" + name + "'");
    } else if (op != "unary" && op != "cast") {
        throw std::invalid_argument("pointwise probes run on unary, elementwise and cast, not " + op);
    }
    if (instance.op->inputs.size() < count || instance.config.inputs.size() < count)
        throw std::invalid_argument(instance.id + ": fewer inputs than the function's arity");
    Operands out;
    for (std::size_t k = 0; k < count; ++k) {
        out.names.push_back(instance.op->inputs[k].name);
        out.dtypes.push_back(instance.config.inputs[k]);
    }
    return out;
}

std::array<std::size_t, 3> placed_positions(std::size_t length) {
    using P = ref::Position;
    return {ref::position_index(P::first, length), ref::position_index(P::middle, length),
            ref::position_index(P::last, length)};
}

std::vector<HostTensor> placed_inputs(const harness::ProbeContext& context, std::size_t length,
                                      const PlacedProbe& probe) {
    const harness::Instance& instance = context.instance();
    const Operands operands = operands_of(instance);
    if (probe.operands.size() != operands.size())
        throw std::logic_error("pointwise probe '" + probe.label + "' has " + std::to_string(probe.operands.size()) +
                               " operands for " + std::to_string(operands.size()));
    std::vector<HostTensor> inputs;
    for (std::size_t k = 0; k < operands.size(); ++k) {
        HostTensor t = generate(operands.dtypes[k], {static_cast<std::int64_t>(length)}, ref::Normal{0, 1},
                                context.seed(), static_cast<std::uint32_t>(k));
        read_as_claimed(t, context.claims());
        if (probe.operands[k])
            for (const std::size_t i : placed_positions(length)) t.set_bits(i, *probe.operands[k]);
        inputs.push_back(std::move(t));
    }
    return inputs;
}

std::vector<HostTensor> value_inputs(const harness::Instance& instance,
                                     const std::vector<std::vector<double>>& columns) {
    const Operands operands = operands_of(instance);
    if (columns.size() != operands.size() || columns.empty())
        throw std::logic_error("pointwise probe: one column of values per operand");
    std::vector<HostTensor> inputs;
    for (std::size_t k = 0; k < operands.size(); ++k) {
        if (columns[k].size() != columns[0].size()) throw std::logic_error("pointwise probe: columns differ in length");
        inputs.push_back(
            from_values(operands.dtypes[k], {static_cast<std::int64_t>(columns[k].size())}, columns[k]));
    }
    return inputs;
}

Evaluations evaluate(const harness::Instance& instance, const std::vector<HostTensor>& inputs) {
    const std::string& op = instance.op->id;
    const ref::Format out = float_format(instance.config.output);
    const auto x = values(inputs.at(0));
    if (op == "unary") {
        const auto function = ref::parse_unary_function(function_of(instance));
        if (!function) throw std::invalid_argument("unary has no function '" + function_of(instance) + "'");
        return {ref::unary_oracle(*function, x, out), {}};
    }
    if (op == "cast") return {ref::cast_oracle(x, float_format(instance.config.inputs.at(0)), out), {}};
    const auto function = elementwise_function(function_of(instance));
    const auto b = values(inputs.at(1));
    const auto c = function == ref::ElementwiseFunction::mul_add ? values(inputs.at(2)) : std::vector<double>{};
    auto result = ref::elementwise_oracle(function, x, b, c, out);
    return {std::move(result.value), std::move(result.fused)};
}

std::vector<std::string> element_inputs(const Operands& operands, const std::vector<HostTensor>& inputs,
                                        std::size_t i) {
    std::vector<std::string> out;
    for (std::size_t k = 0; k < operands.size() && k < inputs.size(); ++k) {
        const std::size_t one[] = {i};
        const auto entry = exactness::depends_on(operands.names[k], inputs[k], one);
        out.insert(out.end(), entry.begin(), entry.end());
    }
    return out;
}

}  // namespace kcs::suites::pointwise
