// C-CMP-03 Contraction and reassociation (spec/v1/classes/C-CMP-03.yaml)
// for elementwise and unary, judged against the fp_contract claim.
//   Contraction probes (mul_add, every configuration): a and b from
//     uniform(8, 16) for f16 and uniform(1, 2) otherwise (streams 2^16 and
//     2^16 + 1 of inputs 0 and 1), pairs with a representable product
//     discarded, c = -RN(a * b) in the output dtype. The unfused value
//     RN(RN(a * b) + c) is +0; the fused one RN(a * b + c) is the product's
//     rounding error, a nonzero normal number (the class's derivation).
//   IEEE probes, each at the first, middle and last elements of calls
//     whose other elements are normal(0, 1): add(+inf, -inf),
//     add(-0, -0), add(-0, +0), add(+0, -0); mul(+0, +inf), mul(-0, 3),
//     mul(-1, +0); mul_add(inf, 0, 1), mul_add(inf, 1, -inf),
//     mul_add(-0, 1, -0); maximum(+0, -0), maximum(-0, +0), maximum(x, NaN),
//     maximum(NaN, x); unary: the signed zeros and infinities of each
//     function as unary.yaml gives them (tanh, erf and gelu of -0 are -0,
//     rsqrt(+-0) = +-inf, exp(-inf) = +0, log(1) = +0, ...).
// Both run at every length [N] of the `shapes` parameter: an IEEE probe in a
// call of N, the contraction elements in calls of N that cycle through them
// until each has run.
// Every element of an elementwise call is judged bitwise: mul_add's against
// its allowed evaluations (unfused; fused as well under fp_contract: on),
// the IEEE probes against IEEE 754 (a NaN: any NaN), the drawn elements of
// add, mul and maximum against their one value. Unary calls are judged at
// the probes only (the drawn elements are approximations, C-CMP-01's).
#include <algorithm>
#include <cmath>
#include <map>
#include <iterator>
#include <vector>
#include <stdexcept>

#include "../tolerance/kind_tally.hpp"
#include "contraction_signature.hpp"
#include "../exactness/exactness_common.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "pointwise_calls.hpp"
#include "pointwise_probes.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace pointwise;
using harness::HostTensor;

constexpr std::size_t kContractionCandidates = 256;  // pairs drawn before the exact products are discarded

// ---------------------------------------------------------------- outcomes

// What an element is, and how its y compares with the allowed evaluations.
enum class Kind { contraction, ieee, plain };
enum class Outcome { unfused, fused, ieee_correct, none };

std::string_view to_string(Kind k) {
    return k == Kind::contraction ? "contraction" : k == Kind::ieee ? "IEEE" : "plain";
}
std::string_view to_string(Outcome o) {
    switch (o) {
        case Outcome::unfused:
            return "unfused";
        case Outcome::fused:
            return "fused";
        case Outcome::ieee_correct:
            return "IEEE-correct";
        case Outcome::none:
            return "none";
    }
    return "?";
}

// y is the value v: a NaN v takes any NaN, anything else bit for bit (signed zeros count).
bool is_exactly(ref::Format out, std::uint32_t got, double v) {
    if (!std::isnan(v)) return got == ref::encode(out, v);
    const auto c = ref::classify(out, got);
    return c == ref::FloatClass::quiet_nan || c == ref::FloatClass::signalling_nan;
}

// Two evaluations agree: both NaN, or equal with the same sign.
bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

// Which of the signature's counts (contraction::Figures) a wrong element
// falls in; "" for an allowed one.
std::string wrong_class(Kind kind, Outcome outcome, bool contract_on, ref::Format out, std::uint32_t got,
                        double expected) {
    if (outcome == Outcome::fused) return contract_on ? "" : "fused";
    if (outcome != Outcome::none) return "";
    if (kind == Kind::contraction) return "regrouped";
    if (kind == Kind::ieee) return contraction::folded_by_finite_math(out, expected, got) ? "ieee_folded" : "ieee_other";
    return "plain";  // a drawn add, mul or maximum off its one value: another class's concern
}

// The element that shows each signature; for unmatched, the least explained first.
std::string_view shown_by(const std::string& signature) {
    if (signature == "fused-where-unfused-declared") return "fused";
    if (signature == "reassociated") return "regrouped";
    if (signature == "finite-math-folding") return "ieee_folded";
    return "";
}
constexpr std::string_view kUnmatchedOrder[] = {"ieee_other", "plain", "regrouped", "fused", "ieee_folded"};

struct Miss {
    std::string probe;
    std::size_t index;
    std::vector<std::string> inputs;
    double unfused, fused;
    std::uint32_t got;
};

class Tally {
public:
    Tally(const harness::Instance& instance, bool contract_on)
        : instance_(instance), out_(float_format(instance.config.output)), contract_on_(contract_on) {}

    // Judges element i of a call: `unfused` is the definition's value (the
    // IEEE value on IEEE probes), `fused` mul_add's single rounding (NaN
    // where there is no other evaluation).
    void judge(Kind kind, const std::string& probe, const std::vector<HostTensor>& inputs, const HostTensor& output,
               std::size_t i, double unfused, double fused) {
        const std::uint32_t got = bits_at(output, i);
        Outcome outcome = Outcome::none;
        if (is_exactly(out_, got, unfused)) outcome = kind == Kind::ieee ? Outcome::ieee_correct : Outcome::unfused;
        else if (kind == Kind::contraction && is_exactly(out_, got, fused)) outcome = Outcome::fused;
        ++counts_[std::string(to_string(kind))][std::string(to_string(outcome))];
        const std::string wrong = wrong_class(kind, outcome, contract_on_, out_, got, unfused);
        if (wrong.empty()) return wrong_.pass();
        wrong_.add(wrong, [&] {
            return Miss{probe, i, element_inputs(operands_of(instance_), inputs, i), unfused, fused, got};
        });
    }

    harness::CaseResult verdict(const std::string& claim) const {
        harness::Evidence evidence;
        evidence.figure_name = harness::figures::unmatched_elements.name;
        evidence.figure = static_cast<double>(wrong_.classified());
        evidence.bound = 0;
        evidence.judged = {wrong_.elements(), "elements"};
        evidence.details = {{"bound", model_citation(*instance_.contract)},
                            {"claim", claim},
                            {"elements", wrong_.elements()},
                            {"outcomes_by_kind", counts_},
                            {"wrong_by_class", wrong_.counts()}};
        if (wrong_.elements() == 0) throw std::logic_error("C-CMP-03 probes judged no element");
        if (wrong_.classified() == 0)
            return passed(instance_, "all " + std::to_string(wrong_.elements()) + " elements equal to an allowed evaluation",
                          std::move(evidence));
        const auto count = [&](const char* c) { return wrong_.count(c); };
        spec::Json figures;
        const std::string signature =
            contraction::signature({contract_on_, count("fused"), count("regrouped"), count("ieee_folded"),
                                    count("ieee_other"), count("plain")},
                                   figures);
        evidence.details["signature_figures"] = std::move(figures);
        std::vector<std::string> shown{std::string(shown_by(signature))};
        shown.insert(shown.end(), std::begin(kUnmatchedOrder), std::end(kUnmatchedOrder));
        const Miss& w = wrong_.shown(shown).second;
        evidence.worst = harness::WorstElement{static_cast<std::int64_t>(w.index),
                                               w.inputs,
                                               w.unfused,
                                               ref::decode(out_, w.got),
                                               hex(out_, w.got),
                                               0,
                                               0};
        spec::Json worst = {{"probe", w.probe}, {"unfused", hex(out_, ref::encode(out_, w.unfused))}};
        if (!std::isnan(w.fused)) worst["fused"] = hex(out_, ref::encode(out_, w.fused));
        evidence.details["worst"] = worst;
        return failed(instance_, signature,
                      std::to_string(wrong_.classified()) + " of " + std::to_string(wrong_.elements()) +
                          " elements equal to no allowed evaluation under fp_contract: " + claim + "; e.g. " +
                          w.probe + " at element " + std::to_string(w.index) + ": expected " +
                          hex(out_, ref::encode(out_, w.unfused)) + ", got " + hex(out_, w.got),
                      std::move(evidence));
    }

private:
    const harness::Instance& instance_;
    ref::Format out_;
    bool contract_on_;
    std::map<std::string, std::map<std::string, std::size_t>> counts_;  // outcomes by kind of element
    tolerance::KindTally<std::string, Miss> wrong_;                     // by the class they are wrong in
};

// ---------------------------------------------------------------- probes

Operand bits(ref::Format f, double v) { return ref::encode(f, v); }

// "add(-0, +0)" with every operand chosen; nullopt keeps the drawn value ("x").
PlacedProbe ieee(ref::Format f, const std::string& function, std::vector<std::optional<double>> operands,
                 std::string shown) {
    PlacedProbe p{function + "(" + shown + ")", {}};
    for (const auto& o : operands) p.operands.push_back(o ? bits(f, *o) : std::nullopt);
    return p;
}

std::vector<PlacedProbe> elementwise_ieee_probes(const std::string& function, ref::Format f) {
    const double inf = HUGE_VAL, nan = std::nan("");
    if (function == "add")
        return {ieee(f, function, {inf, -inf}, "+inf, -inf"), ieee(f, function, {-0.0, -0.0}, "-0, -0"),
                ieee(f, function, {-0.0, 0.0}, "-0, +0"), ieee(f, function, {0.0, -0.0}, "+0, -0")};
    if (function == "mul")
        return {ieee(f, function, {0.0, inf}, "+0, +inf"), ieee(f, function, {-0.0, 3.0}, "-0, 3"),
                ieee(f, function, {-1.0, 0.0}, "-1, +0")};
    if (function == "maximum")
        return {ieee(f, function, {0.0, -0.0}, "+0, -0"), ieee(f, function, {-0.0, 0.0}, "-0, +0"),
                ieee(f, function, {std::nullopt, nan}, "x, NaN"), ieee(f, function, {nan, std::nullopt}, "NaN, x")};
    if (function == "mul_add")
        return {ieee(f, function, {inf, 0.0, 1.0}, "inf, 0, 1"), ieee(f, function, {inf, 1.0, -inf}, "inf, 1, -inf"),
                ieee(f, function, {-0.0, 1.0, -0.0}, "-0, 1, -0")};
    throw std::invalid_argument("elementwise has no function '" + function + "'");
}

// The signed zeros and infinities of unary.yaml's special values.
std::vector<PlacedProbe> unary_ieee_probes(const std::string& function, ref::Format f) {
    const double inf = HUGE_VAL;
    std::vector<std::pair<double, std::string>> x;
    if (function == "exp" || function == "sigmoid") x = {{-inf, "-inf"}, {inf, "+inf"}};
    else if (function == "log") x = {{0.0, "+0"}, {-0.0, "-0"}, {inf, "+inf"}, {1.0, "1"}};
    else if (function == "rsqrt") x = {{0.0, "+0"}, {-0.0, "-0"}, {inf, "+inf"}};
    else x = {{-0.0, "-0"}, {0.0, "+0"}, {-inf, "-inf"}, {inf, "+inf"}};  // tanh, erf, gelu
    std::vector<PlacedProbe> probes;
    for (const auto& [value, shown] : x) probes.push_back(ieee(f, function, {value}, shown));
    return probes;
}

// mul_add(a, b, -RN(a * b)) over the drawn pairs whose product is inexact:
// the columns a, b and c.
std::vector<std::vector<double>> contraction_columns(const harness::Instance& instance, std::uint64_t seed) {
    const ref::Format f = float_format(instance.config.output);
    // f16 needs a, b in [8, 16) for the product's error to be normal (a multiple of 2^-14).
    const ref::Uniform range = f == ref::Format::f16 ? ref::Uniform{8, 16} : ref::Uniform{1, 2};
    const auto a = ref::fill_values(f, range, {seed, 0, ref::auxiliary_stream(0)}, kContractionCandidates);
    const auto b = ref::fill_values(f, range, {seed, 1, ref::auxiliary_stream(1)}, kContractionCandidates);
    std::vector<std::vector<double>> columns(3);
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double product = a[i] * b[i];  // exact in f64
        const double rounded = ref::round_to(f, product);
        if (rounded == product) continue;
        const double error = product - rounded;  // the fused value: exact, and normal by the derivation
        if (std::fabs(error) < ref::info(f).min_normal)
            throw std::logic_error("C-CMP-03 probe construction: a product's rounding error is subnormal");
        columns[0].push_back(a[i]);
        columns[1].push_back(b[i]);
        columns[2].push_back(-rounded);
    }
    if (columns[0].empty()) throw std::logic_error("C-CMP-03 probe construction: every drawn product is exact");
    return columns;
}

// The calls of n elements that cycle through the columns until each has run.
std::vector<std::vector<HostTensor>> calls_of(const harness::Instance& instance,
                                              const std::vector<std::vector<double>>& columns, std::size_t n) {
    const std::size_t count = columns.at(0).size();
    std::vector<std::vector<HostTensor>> calls;
    for (std::size_t first = 0; first < count; first += n) {
        std::vector<std::vector<double>> call(columns.size(), std::vector<double>(n));
        for (std::size_t k = 0; k < columns.size(); ++k)
            for (std::size_t i = 0; i < n; ++i) call[k][i] = columns[k][(first + i) % count];
        calls.push_back(value_inputs(instance, call));
    }
    return calls;
}

harness::CaseResult judge_elementwise(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const std::string claim = context.claims().at("fp_contract");
    const bool contract_on = claim == "on";
    const std::string& function = *instance.function;
    const ref::Format f = float_format(instance.config.output);
    const bool mul_add = function == "mul_add";
    Tally tally(instance, contract_on);
    const double no_other = std::nan("");  // add, mul and maximum have one evaluation
    // A call; elements at `probe_positions` are IEEE probes, the others drawn.
    const auto run = [&](const std::string& name, const std::vector<HostTensor>& inputs,
                         const std::vector<std::size_t>& probe_positions) {
        const std::size_t n = inputs.at(0).elements();
        const Evaluations y = evaluate(instance, inputs);
        const HostTensor output = context.run(invocation(instance, inputs, {static_cast<std::int64_t>(n)})).at(0);
        for (std::size_t i = 0; i < n; ++i) {
            const bool at_probe =
                std::find(probe_positions.begin(), probe_positions.end(), i) != probe_positions.end();
            const double fused = mul_add ? y.fused[i] : no_other;
            if (at_probe && mul_add && !same_value(y.value[i], fused))
                throw std::logic_error("C-CMP-03 probe construction: " + name + " has two allowed evaluations");
            const Kind kind = at_probe ? Kind::ieee : mul_add ? Kind::contraction : Kind::plain;
            const bool drawn = !at_probe && !probe_positions.empty();  // of an IEEE probe's call
            tally.judge(kind, drawn ? name + ", drawn element" : name, inputs, output, i, y.value[i], fused);
        }
    };
    const auto contraction = mul_add ? contraction_columns(instance, context.seed()) : std::vector<std::vector<double>>{};
    for (const auto& shape : probe_shapes(instance, 1, "[N]")) {
        const auto n = static_cast<std::size_t>(shape[0]);
        const std::string at = " " + shape_text(shape);
        if (mul_add)
            for (const auto& inputs : calls_of(instance, contraction, n)) run("mul_add(a, b, -RN(a * b))" + at, inputs, {});
        const auto positions = placed_positions(n);
        for (const auto& probe : elementwise_ieee_probes(function, f))
            run(probe.label + at, placed_inputs(context, n, probe), {positions.begin(), positions.end()});
    }
    return tally.verdict(claim);
}

harness::CaseResult judge_unary(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const std::string claim = context.claims().at("fp_contract");
    const ref::Format f = float_format(instance.config.output);
    Tally tally(instance, claim == "on");
    for (const auto& shape : probe_shapes(instance, 1, "[N]"))
        for (const auto& probe : unary_ieee_probes(*instance.function, f)) {
            const auto n = static_cast<std::size_t>(shape[0]);
            const auto inputs = placed_inputs(context, n, probe);
            const Evaluations y = evaluate(instance, inputs);
            const HostTensor output = context.run(invocation(instance, inputs, shape)).at(0);
            std::vector<std::size_t> judged;  // the probe's positions, each once (they coincide where n < 3)
            for (const std::size_t i : placed_positions(n))
                if (std::find(judged.begin(), judged.end(), i) == judged.end()) judged.push_back(i);
            for (const std::size_t i : judged)
                tally.judge(Kind::ieee, probe.label + " " + shape_text(shape), inputs, output, i, y.value[i],
                            std::nan(""));
        }
    return tally.verdict(claim);
}

}  // namespace

harness::CaseResult contraction_elementwise(harness::ProbeContext& context) { return judge_elementwise(context); }

harness::CaseResult contraction_unary(harness::ProbeContext& context) { return judge_unary(context); }

}  // namespace kcs::suites
