// C-CMP-02 Subnormal handling (spec/v1/classes/C-CMP-02.yaml) for the
// pointwise operators, one call per instance holding every probe element:
//   elementwise (exact probes): add of two subnormals (both sides), of the
//     smallest normal and a subnormal (input side) and differences of
//     neighbouring small normals, 1.5 * 2^emin - 2^emin among them (output
//     side); mul of a subnormal by 2^(p-1) back into the normal range
//     (input side), of two small normals into the subnormal grid (output
//     side) and of a subnormal by 1 or 1/2 (both); maximum of subnormals of
//     both signs and against -2^emin (both); mul_add with those operands;
//   unary (function probes, judged by kind): exp and sigmoid of arguments
//     whose results are subnormal (output side), tanh, erf and gelu of
//     subnormals (both sides, or input side where the result is normal),
//     gelu of [2^emin, 2^(emin+1)) (output side: about x/2), rsqrt and log
//     of positive subnormals (input side: finite, infinite when read as +0);
//   cast (exact probes): values on the subnormal grid of the narrower
//     format, both signs: f32 -> f16 output side (normal f32 values),
//     f16 -> f32 input side, f32 -> bf16 and bf16 -> f32 both sides.
// Subnormals are k * 2^(emin - p + 1) with k drawn from stream 2^16
// (subnormal_batches.hpp), function-probe results at least the class's
// smallest function result. The probe elements run at every length [N] of
// the `shapes` parameter (kernels take vector and scalar tail paths by
// length and position): calls of N elements cycle through them until each
// has run, repeating them where N is longer. subnormal_batches.hpp judges
// the batches.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../exactness/exactness_common.hpp"
#include "kcs/reference/cast_oracle.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/unary_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "pointwise_calls.hpp"
#include "pointwise_probes.hpp"
#include "../exactness/subnormal_batches.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace pointwise;
using namespace subnormal_batches;

// Random draws per probe kind.
constexpr int kDraws = 8;

// The probe elements of one batch: the operands of each element.
using Rows = std::vector<std::vector<double>>;

std::vector<std::vector<double>> columns_of(const Rows& rows, std::size_t operands) {
    std::vector<std::vector<double>> columns(operands);
    for (const auto& row : rows)
        for (std::size_t k = 0; k < operands; ++k) columns[k].push_back(row.at(k));
    return columns;
}

Batch batch_of(const harness::Instance& instance, std::string name, const Rows& rows) {
    const Operands operands = operands_of(instance);
    Batch b{std::move(name), value_inputs(instance, columns_of(rows, operands.size())),
            {static_cast<std::int64_t>(rows.size())}, {}, {}};
    b.inputs_of = [operands, inputs = b.inputs](std::size_t i) { return element_inputs(operands, inputs, i); };
    return b;
}

// The probe batch at every length N of the instance's `shapes`: element i
// of call c is probe element (c N + i) mod count, for ceil(count / N) calls,
// so every probe element runs at each length, repeated where N is longer.
std::vector<Batch> at_every_length(const harness::Instance& instance, const Batch& probes) {
    const Operands operands = operands_of(instance);
    const std::size_t count = static_cast<std::size_t>(probes.output_shape.at(0));
    std::vector<const Expectation*> expected(count, nullptr);
    for (const auto& e : probes.elements) expected.at(e.index) = &e;
    std::vector<Batch> out;
    for (const auto& shape : probe_shapes(instance, 1, "[N]")) {
        const auto n = static_cast<std::size_t>(shape[0]);
        for (std::size_t call = 0; call * n < count; ++call) {
            Batch b{probes.name + " " + shape_text(shape), {}, shape, {}, {}};
            for (const auto& t : probes.inputs) b.inputs.push_back(harness::HostTensor::zeros(t.dtype, shape));
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t source = (call * n + i) % count;
                for (std::size_t k = 0; k < b.inputs.size(); ++k) b.inputs[k].set_bits(i, probes.inputs[k].bits(source));
                if (const Expectation* e = expected[source]) {
                    b.elements.push_back(*e);
                    b.elements.back().index = i;
                }
            }
            b.inputs_of = [operands, inputs = b.inputs](std::size_t i) { return element_inputs(operands, inputs, i); };
            out.push_back(std::move(b));
        }
    }
    return out;
}

// ---------------------------------------------------------------- elementwise (exact probes)

// y_pres of one element: the definition with every step exact (the
// construction guarantees it; std::logic_error otherwise). `stepped` tells
// whether an intermediate (mul_add's product) is subnormal.
double honoured(const std::string& function, const std::vector<double>& x, ref::Format f, bool& stepped) {
    stepped = false;
    if (function == "add") return exact_result(f, x[0] + x[1], "add");
    if (function == "mul") return exact_result(f, x[0] * x[1], "mul");
    if (function == "maximum") return ref::maximum_oracle(x[0], x[1]);
    const double product = exact_result(f, x[0] * x[1], "mul_add's product");
    stepped = is_subnormal(f, product);
    return exact_result(f, product + x[2], "mul_add");
}

// y_flush: subnormal inputs read as zeros of their sign, every subnormal
// result (mul_add's product included) replaced by zero.
double flushed(const std::string& function, const std::vector<double>& x, ref::Format f) {
    std::vector<double> z(x.size());
    std::transform(x.begin(), x.end(), z.begin(), [&](double v) { return flush_input(f, v); });
    if (function == "add") return flushed_result(f, z[0] + z[1]);
    if (function == "mul") return flushed_result(f, z[0] * z[1]);
    if (function == "maximum") return flushed_result(f, ref::maximum_oracle(z[0], z[1]));
    return flushed_result(f, flushed_result(f, z[0] * z[1]) + z[2]);
}

Rows elementwise_rows(const std::string& function, ref::Format f, GridDraws& draws) {
    const Grid g = grid_of(f);
    const int p = ref::info(f).precision;
    const auto sub = [&](std::int64_t k) { return static_cast<double>(k) * g.step; };
    const auto random_k = [&] { return draws.next(1, g.largest_k); };
    // Subnormals whose sums, two at a time, stay subnormal.
    const auto bounded = [&] { return sub(draws.next(-g.largest_k / 2, g.largest_k / 2)); };
    // Small normals whose product is k * step: 2^ea and k * 2^(es - ea).
    const int es = std::ilogb(g.step), ea = es / 2 - (es % 2 != 0);
    const bool small_products = std::ldexp(1.0, ea) >= g.tiny && std::ldexp(1.0, es - ea) >= g.tiny;
    const double half_way = std::ldexp(1.0, p - 2);  // 1.5 * 2^emin - 2^emin = 2^(p-2) steps
    Rows rows;
    for (const double sign : {1.0, -1.0}) {
        const std::vector<double> subnormals{g.step, sub(g.largest_k), sub(random_k()), sub(random_k())};
        if (function == "add") {
            for (std::size_t j = 0; j < subnormals.size(); ++j) {  // input side, both operand orders
                if (j % 2) rows.push_back({sign * g.tiny, sign * subnormals[j]});
                else rows.push_back({sign * subnormals[j], sign * g.tiny});
            }
            for (const double n : {half_way, double(random_k()), double(random_k()), double(random_k())})
                rows.push_back({sign * (g.tiny + n * g.step), -sign * g.tiny});  // output side
        } else if (function == "mul") {
            const double back = std::ldexp(1.0, p - 1);  // k * step * 2^(p-1) = k * 2^emin, normal
            for (std::size_t j = 0; j < subnormals.size(); ++j) {
                if (j % 2) rows.push_back({back, sign * subnormals[j]});
                else rows.push_back({sign * subnormals[j], back});
            }
            if (small_products)
                for (int r = 0; r < kDraws / 2; ++r)
                    rows.push_back({std::ldexp(1.0, ea), sign * std::ldexp(double(random_k()), es - ea)});
            rows.push_back({sign * subnormals[2], 1.0});  // both sides
            rows.push_back({-1.0, sign * subnormals[3]});
            rows.push_back({sign * sub(2 * draws.next(1, g.largest_k / 2)), 0.5});
        } else if (function == "maximum") {
            rows.push_back({sign * subnormals[2], -g.tiny});
            rows.push_back({-g.tiny, sign * subnormals[3]});
            rows.push_back({-subnormals[0], -subnormals[1]});
        } else {  // mul_add
            for (const double n : {half_way, double(random_k())})
                rows.push_back({sign * (g.tiny + n * g.step), 1.0, -sign * g.tiny});  // output side
            if (small_products)
                rows.push_back({std::ldexp(1.0, ea), sign * std::ldexp(double(random_k()), es - ea), 0.0});
            // Input side: k * step * 2^(p-1) + 2^emin = (k + 1) 2^emin, and 2^emin + a subnormal.
            rows.push_back({sign * subnormals[2], std::ldexp(1.0, p - 1), sign * g.tiny});
            rows.push_back({sign * g.tiny, 1.0, sign * subnormals[3]});
        }
    }
    // Both sides: two subnormals of random signs.
    for (int r = 0; r < kDraws; ++r) {
        if (function == "add" || function == "maximum") rows.push_back({bounded(), bounded()});
        if (function == "mul_add") rows.push_back({bounded(), 1.0, bounded()});
    }
    return rows;
}

Batch elementwise_batch(const harness::Instance& instance, GridDraws& draws) {
    const std::string& function = *instance.function;
    const ref::Format f = float_format(instance.config.output);
    const Rows rows = elementwise_rows(function, f, draws);
    Batch b = batch_of(instance, "elementwise " + function + " on the subnormal grid", rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        bool stepped = false;
        const double y_pres = honoured(function, rows[i], f, stepped);
        const double y_flush = flushed(function, rows[i], f);
        if (!distinguishing(y_pres, y_flush)) continue;
        const bool subnormal_input =
            std::any_of(rows[i].begin(), rows[i].end(), [&](double v) { return is_subnormal(f, v); });
        const SubnormalSide side = side_of(subnormal_input, stepped || is_subnormal(f, y_pres));
        b.elements.push_back({i, side, y_pres, y_flush, true});
    }
    return b;
}

// ---------------------------------------------------------------- unary (function probes)

// Arguments per function (see the file comment), before the filter that
// keeps results at least the smallest function result.
std::vector<double> unary_arguments(const std::string& function, ref::Format f, double smallest, GridDraws& draws) {
    const Grid g = grid_of(f);
    const auto sub = [&](std::int64_t k) { return static_cast<double>(k) * g.step; };
    std::vector<double> x;
    if (function == "exp" || function == "sigmoid") {
        // exp(x) subnormal: x from ln(smallest function result) up to
        // where exp still rounds below 2^emin (sigmoid(x) is exp(x) there,
        // to a relative 2^emin); the filter trims what rounding moves out.
        const double x_low = value_at_or_above(f, std::log(smallest));
        const double x_high = value_at_or_below(f, std::log(g.tiny - g.step / 2));
        const std::int64_t low_bits = ref::encode(f, x_high), high_bits = ref::encode(f, x_low);  // negatives
        x = {x_low, x_high};
        for (int r = 0; r < 2 * kDraws; ++r)
            x.push_back(ref::decode(f, static_cast<std::uint32_t>(draws.next(low_bits, high_bits))));
        return x;
    }
    for (const double sign : {1.0, -1.0}) {
        if (sign < 0 && (function == "log" || function == "rsqrt")) break;  // NaN either way
        x.push_back(sign * g.step);
        x.push_back(sign * sub(g.largest_k));
        for (int r = 0; r < kDraws; ++r) x.push_back(sign * sub(draws.next(1, g.largest_k)));
        if (function == "gelu")  // output side: gelu(x) ~ x/2 for x in [2^emin, 2^(emin+1))
            for (int r = 0; r < kDraws / 2; ++r) x.push_back(sign * (g.tiny + sub(draws.next(0, g.largest_k))));
    }
    return x;
}

Batch unary_batch(const harness::ProbeContext& context, GridDraws& draws) {
    const auto& instance = context.instance();
    const std::string& function = *instance.function;
    const ConfigFormats cf = formats_of(instance);
    const ref::Format f = cf.out;
    const auto which = ref::parse_unary_function(function);
    if (!which) throw std::invalid_argument("unary has no function '" + function + "'");
    const double smallest = smallest_function_probe_value(context, cf);
    Rows rows;
    std::vector<Expectation> elements;
    for (const double x : unary_arguments(function, f, smallest, draws)) {
        const double y_pres = ref::unary_oracle(*which, x, f);
        const double y_flush = flushed_result(f, ref::unary_oracle(*which, flush_input(f, x), f));
        // The derivation's margin: no value within C-CMP-01's allowance of
        // y_pres is a zero or infinite.
        if (!std::isfinite(y_pres) || std::fabs(y_pres) < smallest || !distinguishing(y_pres, y_flush)) continue;
        if (is_subnormal(f, ref::round_to(f, y_pres)) && !inside_subnormal_range(f, y_pres, smallest)) continue;
        const SubnormalSide side = side_of(is_subnormal(f, x), is_subnormal(f, y_pres));
        elements.push_back({rows.size(), side, y_pres, y_flush, false});
        rows.push_back({x});
    }
    if (elements.empty()) throw std::logic_error("C-CMP-02 unary." + function + " probe: no argument qualifies");
    Batch b = batch_of(instance, "unary " + function + " of subnormals and into the subnormal range", rows);
    b.elements = std::move(elements);
    return b;
}

// ---------------------------------------------------------------- cast (exact probes)

Batch cast_batch(const harness::Instance& instance, GridDraws& draws) {
    const ref::Format in = float_format(instance.config.inputs.at(0)), out = float_format(instance.config.output);
    // The narrower format's grid holds values of both.
    const Grid g = grid_of(ref::info(in).min_subnormal > ref::info(out).min_subnormal ? in : out);
    Rows rows;
    for (const double sign : {1.0, -1.0}) {
        rows.push_back({sign * g.step});
        rows.push_back({sign * g.step * static_cast<double>(g.largest_k)});
        for (int r = 0; r < 2 * kDraws; ++r)
            rows.push_back({sign * g.step * static_cast<double>(draws.next(1, g.largest_k))});
    }
    Batch b = batch_of(instance, "cast of the subnormal grid", rows);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double x = rows[i][0];
        const double y_pres = exact_result(out, ref::cast_oracle(x, in, out), "cast");
        const double y_flush = flushed_result(out, ref::cast_oracle(flush_input(in, x), in, out));
        if (!distinguishing(y_pres, y_flush)) continue;
        b.elements.push_back({i, side_of(is_subnormal(in, x), is_subnormal(out, y_pres)), y_pres, y_flush, true});
    }
    return b;
}

}  // namespace

harness::CaseResult subnormal_handling_elementwise(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, at_every_length(context.instance(), elementwise_batch(context.instance(), draws)));
}

harness::CaseResult subnormal_handling_unary(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, at_every_length(context.instance(), unary_batch(context, draws)));
}

harness::CaseResult subnormal_handling_cast(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, at_every_length(context.instance(), cast_batch(context.instance(), draws)));
}

}  // namespace kcs::suites
