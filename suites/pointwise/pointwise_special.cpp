// C-EXC-01 NaN and Inf propagation (spec/v1/classes/C-EXC-01.yaml) for the
// pointwise operators. Each probe is one tuple of operands placed at the
// first, middle and last elements of a call whose other elements are
// normal(0, 1) (pointwise_calls.hpp), one call at each length [N] of the
// `shapes` parameter:
//   unary: the function at each NaN (quiet and signalling), +-inf and +-0,
//     and for log and rsqrt at negative arguments (-1, -min normal, -max);
//   elementwise: each NaN and infinity as each operand, the others drawn,
//     then pairs: inf - inf, +inf with +inf, NaN with inf, NaN with NaN,
//     0 * inf both ways; maximum(x, NaN) and maximum(NaN, x) are among the
//     single-operand probes; mul_add adds mul_add(inf, 0, c) (a pair with
//     c drawn), mul_add(+-inf, 1 or 2, -+inf) and mul_add(NaN, 0, inf);
//   cast: each NaN, +-inf and +-0 in the configuration's direction.
// The operator's definition, evaluated exactly by the reference oracles,
// gives y*; special_values_judge.hpp (the ieee_special model) judges every
// element of every call by class (drawn elements included: they must stay
// finite, or be NaN where log or rsqrt of a negative draw is).
#include <stdexcept>

#include "../exactness/exactness_common.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "pointwise_calls.hpp"
#include "pointwise_probes.hpp"
#include "../exactness/special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace pointwise;

struct Named {
    std::string name;
    std::uint32_t bits;
};

// The values of the named special-value subsets of a format, in set order.
std::vector<Named> subset_values(ref::Format f, std::initializer_list<std::string_view> subsets) {
    std::vector<Named> out;
    for (const auto& v : ref::special_values(f))
        for (const auto subset : subsets)
            if (v.subset == subset) out.push_back({std::string(v.name), v.bits});
    return out;
}

// One value of the special-value set by its name ("+inf"), or a number.
Named special(ref::Format f, std::string_view name) {
    for (const auto& v : ref::special_values(f))
        if (v.name == name) return {std::string(name), v.bits};
    throw std::logic_error("no special value '" + std::string(name) + "' in " + std::string(ref::info(f).name));
}
Named number(ref::Format f, double v, std::string name) { return {std::move(name), ref::encode(f, v)}; }

PlacedProbe single(const Named& v) { return {v.name, {v.bits}}; }

// ---------------------------------------------------------------- probes per operator

std::vector<PlacedProbe> unary_probes(const harness::Instance& instance) {
    const ref::Format f = float_format(instance.config.inputs.at(0));
    std::vector<PlacedProbe> probes;
    for (const auto& v : subset_values(f, {"nans", "snans", "infinities", "zeros"})) probes.push_back(single(v));
    // log and rsqrt are defined for x >= 0 only: NaN below (unary.yaml).
    const std::string& function = *instance.function;
    if (function == "log" || function == "rsqrt")
        for (const auto& v : {number(f, -1, "-1"), special(f, "-min normal"), special(f, "-max finite")})
            probes.push_back(single(v));
    return probes;
}

std::vector<PlacedProbe> cast_probes(const harness::Instance& instance) {
    const ref::Format f = float_format(instance.config.inputs.at(0));
    std::vector<PlacedProbe> probes;
    for (const auto& v : subset_values(f, {"nans", "snans", "infinities", "zeros"})) probes.push_back(single(v));
    return probes;
}

// "mul_add(+inf, drawn, drawn)"
std::string call_label(const std::string& function, const std::vector<std::optional<Named>>& operands) {
    std::string label = function;
    label.append("(");
    for (std::size_t k = 0; k < operands.size(); ++k) {
        if (k) label.append(", ");
        label.append(operands[k] ? operands[k]->name : "drawn");
    }
    return label.append(")");
}

PlacedProbe tuple(const std::string& function, std::size_t arity, std::vector<std::optional<Named>> operands) {
    operands.resize(arity);
    PlacedProbe p{call_label(function, operands), {}};
    for (const auto& o : operands) p.operands.push_back(o ? Operand{o->bits} : std::nullopt);
    return p;
}

std::vector<PlacedProbe> elementwise_probes(const harness::Instance& instance) {
    const Operands operands = operands_of(instance);
    const ref::Format f = float_format(operands.dtypes.at(0));
    const std::string& function = *instance.function;
    const std::size_t arity = operands.size();
    std::vector<PlacedProbe> probes;
    // Every NaN and infinity as each operand (maximum(x, NaN) and maximum(NaN, x) among them).
    for (std::size_t k = 0; k < arity; ++k)
        for (const auto& v : subset_values(f, {"nans", "infinities"})) {
            std::vector<std::optional<Named>> tuple_operands(arity);
            tuple_operands[k] = v;
            probes.push_back(tuple(function, arity, std::move(tuple_operands)));
        }
    const auto s = [&](std::string_view name) { return std::optional<Named>(special(f, name)); };
    const auto n = [&](double v, std::string name) { return std::optional<Named>(number(f, v, std::move(name))); };
    // Pairs of the first two operands: inf - inf (and inf + inf), NaN with
    // inf, two NaNs, 0 * inf; for mul_add with c drawn, the last three are
    // mul_add(inf, 0, c).
    for (auto pair : std::vector<std::vector<std::optional<Named>>>{{s("+inf"), s("-inf")},
                                                                    {s("-inf"), s("+inf")},
                                                                    {s("+inf"), s("+inf")},
                                                                    {s("-inf"), s("-inf")},
                                                                    {s("+qNaN"), s("+inf")},
                                                                    {s("-inf"), s("-qNaN")},
                                                                    {s("+qNaN"), s("-qNaN")},
                                                                    {s("+0"), s("+inf")},
                                                                    {s("-inf"), s("-0")},
                                                                    {s("+inf"), s("+0")}})
        probes.push_back(tuple(function, arity, std::move(pair)));
    if (function == "mul_add")
        for (auto triple : std::vector<std::vector<std::optional<Named>>>{{s("+inf"), n(1, "1"), s("-inf")},
                                                                          {s("-inf"), n(2, "2"), s("+inf")},
                                                                          {n(2, "2"), s("-inf"), s("-inf")},
                                                                          {s("+inf"), n(1, "1"), s("+inf")},
                                                                          {s("+qNaN"), s("+0"), s("+inf")}})
            probes.push_back(tuple(function, arity, std::move(triple)));
    return probes;
}

// ---------------------------------------------------------------- judging

// Every element of every probe's call, by the class of the definition's value.
harness::CaseResult judge_probes(harness::ProbeContext& context, const std::vector<PlacedProbe>& probes) {
    const auto& instance = context.instance();
    const Operands operands = operands_of(instance);
    std::vector<SpecialBatch> batches;
    for (const auto& shape : probe_shapes(instance, 1, "[N]"))
        for (const auto& probe : probes) {
            const auto n = static_cast<std::size_t>(shape[0]);
            const auto inputs = placed_inputs(context, n, probe);
            const Evaluations y = evaluate(instance, inputs);
            SpecialBatch batch{context.run(invocation(instance, inputs, shape)).at(0), {},
                               [operands, inputs](std::size_t i) { return element_inputs(operands, inputs, i); }};
            const std::string label = probe.label + " " + shape_text(shape);
            for (std::size_t i = 0; i < n; ++i) {
                const SpecialExpectation expected = expectation_of(y.value[i]);
                // The precondition: no evaluation the claims admit changes a class.
                if (!y.fused.empty() && expectation_of(y.fused[i]) != expected)
                    throw std::logic_error("C-EXC-01 probe construction: " + label +
                                           " has fused and unfused results of different classes");
                batch.elements.push_back({i, expected, y.value[i], label});
            }
            batches.push_back(std::move(batch));
        }
    return judge_special_batches(context, batches);
}

}  // namespace

harness::CaseResult special_values_unary(harness::ProbeContext& context) {
    return judge_probes(context, unary_probes(context.instance()));
}

harness::CaseResult special_values_elementwise(harness::ProbeContext& context) {
    return judge_probes(context, elementwise_probes(context.instance()));
}

harness::CaseResult special_values_cast(harness::ProbeContext& context) {
    return judge_probes(context, cast_probes(context.instance()));
}

}  // namespace kcs::suites
