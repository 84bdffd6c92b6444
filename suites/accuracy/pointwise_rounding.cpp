// C-PRC-04 Conversion rounding (spec/v1/classes/C-PRC-04.yaml) for the
// final store of unary and elementwise. Their f16 and bf16 results are
// computed in f32 and rounded once by the store; the value v before the
// store is not observable, so the protocol pins it down:
//   (a) elementwise add and mul_add (as a * 1 + c) on the two-addend tie
//       sums of conversion rounding: exact in f32, on a tie of the output
//       dtype, next to one, or at its overflow threshold;
//   (b) on `samples` N(0,1) arguments, every output whose value before the
//       store is within E of a known y* and [y* - E, y* + E] holds no
//       rounding midpoint of the output dtype: then RNE(v) = RNE(y*).
//       unary: y* = cr32 = RN_f32(f(x)) and E = table[f][f32] ulp_f32(cr32),
//       C-CMP-01's bound for the f32 evaluation, measured against cr32
//       itself so the oracle adds no error. elementwise: y* the exact
//       result of the definition (for mul_add RN_out(a b) + c), E one f32
//       rounding, u(f32) |y*|, widened by the error of forming y* in f64.
// An f32 output has no narrowing store: the plan makes unary f32 and
// elementwise f32 NOT_APPLICABLE here (C-CMP-01 and C-CMP-03 judge them).
#include <cmath>
#include <span>
#include <stdexcept>

#include "accuracy_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "exhaustive_sweep.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/suites/operator_io.hpp"
#include "store_judging.hpp"
#include "../tolerance/ulp_table.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;
using ref::Format;

// The record of a case: the stores judged, with the counts of check (b).
struct RoundingTally {
    StoreTally stores;
    std::size_t sampled = 0, qualifying = 0;

    void merge(const RoundingTally& other) {
        stores.merge(other.stores);
        sampled += other.sampled;
        qualifying += other.qualifying;
    }

    // Check (b) on one output: y* and E known, the stored `got`. Returns the
    // record kept as the first mismatch of its kind (the caller adds its inputs).
    // `own`: the kernel's own f32 result on the same argument, where the
    // adapter offers the f32 output (a store of RN_out(own) rounded correctly).
    StoreRecord* judge_near(std::size_t index, const std::string& probe, ref::Format out, double y, double width,
                            std::uint32_t got, const std::uint32_t* own = nullptr) {
        ++sampled;
        if (!std::isfinite(y) || !clear_of_midpoints(out, y, width)) return nullptr;
        ++qualifying;
        StoreRecord record = store(index, probe, y, out, got, width);
        if (own && got != record.expected && got == rne_bits(out, ref::decode(Format::f32, *own))) {
            stores.add_explained("RN_out of the kernel's own f32 result (C-CMP-01 judges that result)");
            return nullptr;
        }
        return stores.judge(std::move(record), false);
    }
};

spec::Json sample_details(const RoundingTally& t) {
    return {{"sampled_outputs", t.sampled}, {"qualifying_outputs", t.qualifying}};
}

std::string element(const std::string& name, std::size_t index, Format format, std::uint32_t bits) {
    return std::string(name).append("[").append(std::to_string(index)).append("]=").append(hex(format, bits));
}

const spec::ContractClass& cmp01(const harness::ProbeContext& context) {
    const auto* c = context.catalog().find_class("C-CMP-01");
    if (!c) throw std::invalid_argument("the catalog has no class C-CMP-01, whose f32 bound C-PRC-04 check (b) uses");
    return *c;
}

// The exact sum s + e of two doubles (TwoSum, Knuth): e is the error of s.
std::pair<double, double> two_sum(double a, double b) {
    const double s = a + b;
    const double bp = s - a;
    return {s, (a - (s - bp)) + (b - bp)};
}

// y* of an elementwise function in f64, and the error of forming it.
std::pair<double, double> exact_result(ref::ElementwiseFunction function, double a, double b, double c, Format out) {
    switch (function) {
        case ref::ElementwiseFunction::add: return two_sum(a, b);
        case ref::ElementwiseFunction::mul: return {a * b, 0.0};  // at most 2 x 24 bits: exact
        case ref::ElementwiseFunction::maximum: return {ref::maximum_oracle(a, b), 0.0};
        case ref::ElementwiseFunction::mul_add: return two_sum(ref::mul_oracle(a, b, out), c);
    }
    return {NAN, 0.0};
}

ref::ElementwiseFunction elementwise_function(const harness::Instance& instance) {
    const std::string name = instance.function.value_or("");
    if (name == "add") return ref::ElementwiseFunction::add;
    if (name == "mul") return ref::ElementwiseFunction::mul;
    if (name == "maximum") return ref::ElementwiseFunction::maximum;
    if (name == "mul_add") return ref::ElementwiseFunction::mul_add;
    throw std::invalid_argument(std::string("C-PRC-04 on elementwise: no function '").append(name).append("'"));
}

// Kind (a): add(a, b) and mul_add(a, 1, c) on the tie sums' two addends.
void elementwise_tie_sums(harness::ProbeContext& context, const ConfigFormats& f, ref::ElementwiseFunction function,
                          RoundingTally& tally, spec::Json& details) {
    const auto sums = tie_sums(f.in);
    const auto n = static_cast<std::int64_t>(sums.size());
    std::vector<double> a, b, c;
    for (const auto& s : sums) {
        if (s.addends.size() != 2) throw std::logic_error("C-PRC-04: elementwise takes tie sums of two addends");
        a.push_back(s.addends[0]);
        b.push_back(function == ref::ElementwiseFunction::mul_add ? 1.0 : s.addends[1]);
        c.push_back(s.addends[1]);
    }
    std::vector<HostTensor> inputs{from_values(f.in_name, {n}, a), from_values(f.in_name, {n}, b)};
    if (function == ref::ElementwiseFunction::mul_add) inputs.push_back(from_values(f.in_name, {n}, c));
    const auto outputs = context.run(invocation(context.instance(), inputs, {n}));
    for (std::size_t i = 0; i < sums.size(); ++i) {
        if (!exact_in_f32_any_order(sums[i].addends))
            throw std::logic_error("C-PRC-04 probe construction: " + sums[i].name + " is not exact in f32");
        StoreRecord r = store(i, sums[i].name, a[i] + c[i], f.out, bits_at(outputs[0], i));
        if (StoreRecord* kept = tally.stores.judge(std::move(r), true)) {
            kept->inputs = {element("a", i, f.in, bits_at(inputs[0], i)), element("b", i, f.in, bits_at(inputs[1], i))};
            if (inputs.size() == 3) kept->inputs.push_back(element("c", i, f.in, bits_at(inputs[2], i)));
        }
    }
    details["tie_sums"] = sums.size();
}

// The kernel's own f32 results on the sweep's arguments: the same function
// with an f32 output, on the same encodings where the adapter offers that
// (bf16 -> f32), else on the same values as f32 (the f32-f32
// configuration; narrow arguments are exact in f32), chunk by chunk; empty
// when the adapter offers neither. A store that differs from RN_out(y*)
// but equals RN_out of this result rounded correctly: the error is in the
// value, not in the conversion (SPEC.md section 5, "Primary cause").
std::vector<std::uint32_t> own_f32_results(harness::ProbeContext& context, const sweep::EncodingDomain& domain,
                                           const sweep::ChunkPlan& plan, std::string& how) {
    std::vector<std::uint32_t> own;
    bool widen_arguments = false;
    for (std::uint64_t c = 0; c < plan.chunks(); ++c) {
        harness::Invocation call = sweep::chunk_invocation(context.instance(), domain, plan.chunk(c));
        call.outputs.at(0).dtype = KCS_DTYPE_F32;
        if (c == 0 && !context.supported(call)) widen_arguments = true;
        if (widen_arguments) {
            const harness::HostTensor& x = call.inputs.at(0);
            call.inputs.at(0) = from_values("f32", x.shape, values(x));
            if (c == 0 && !context.supported(call)) {
                how = "not offered: the adapter declines an f32 output of this function";
                return {};
            }
        }
        const auto outputs = context.run(call);
        const sweep::EncodingView view(outputs.at(0));
        const std::size_t first = own.size();
        own.resize(first + view.size());
        view.read(0, std::span(own).subspan(first));
    }
    how = widen_arguments ? "compared: the f32-f32 configuration on the same values"
                          : "compared: the same arguments with an f32 output";
    return own;
}

}  // namespace

harness::CaseResult unary_rounding(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const bool flush_claimed = flushes_subnormals(context.claims());
    RoundingTally total{StoreTally(f.out, flush_claimed)};
    const auto function = ref::parse_unary_function(instance.function.value_or(""));
    if (!function) throw std::invalid_argument(std::string("C-PRC-04 on unary needs one of its functions: ").append(instance.id));
    const std::string name(ref::unary_function_name(*function));
    const double f32_bound = ulp_table_entry(cmp01(context).tolerance.params, name, "f32");

    const auto samples = static_cast<std::size_t>(context.integer("samples"));
    const sweep::EncodingDomain domain = sweep::EncodingDomain::listed(
        ref::fill_bits(f.in, ref::Normal{0, 1}, ref::TensorStream{context.seed(), 0}, samples));
    const sweep::ChunkPlan plan(domain.size(), sweep::chunk_elements_from_environment());
    std::string own_how;
    const std::vector<std::uint32_t> own = own_f32_results(context, domain, plan, own_how);
    const std::string probe = "N(0,1) arguments";
    const sweep::SweepTiming timing = sweep::run_sweep(context, domain, plan, sweep::sweep_label(instance),
                     [&](const sweep::Chunk& chunk, const harness::Invocation& call,
                         const std::vector<harness::HostTensor>& outputs) {
        const sweep::EncodingView x(call.inputs[0]), y(outputs[0]);
        sweep::judge_in_slices(chunk.count, RoundingTally{StoreTally(f.out, flush_claimed)}, total,
                               [&](std::size_t begin, std::size_t end, RoundingTally& t) {
            for (std::size_t i = begin; i < end; ++i) {
                if (t.stores.input_left_to_cmp02(f.in, x.at(i))) continue;
                // The argument is exact in f32; cr32 is the f32 evaluation's reference.
                const std::uint32_t x32 = ref::encode(Format::f32, ref::decode(f.in, x.at(i)));
                const double cr32 = ref::decode(Format::f32, ref::correctly_rounded_bits(*function, Format::f32, x32));
                const double width = f32_bound * ref::ulp_at(Format::f32, cr32);
                const std::size_t index = chunk.first + i;
                const std::uint32_t* own_result = own.empty() ? nullptr : &own[index];
                if (StoreRecord* kept = t.judge_near(index, probe, f.out, cr32, width, y.at(i), own_result))
                    kept->inputs = {element("x", index, f.in, x.at(i))};
            }
        });
    });
    spec::Json details = sample_details(total);
    details["accumulator_side_bound"] = model_citation(cmp01(context));
    details["f32_bound_ulp"] = f32_bound;
    details["own_f32_result"] = own_how;
    details["sweep_timing"] = timing.record();
    return total.stores.verdict(instance, std::move(details));
}

harness::CaseResult elementwise_rounding(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const auto function = elementwise_function(instance);
    const bool fused_accepted = function == ref::ElementwiseFunction::mul_add && context.claims().at("fp_contract") == "on";
    RoundingTally total{StoreTally(f.out, flushes_subnormals(context.claims()))};
    spec::Json details = spec::Json::object();
    if (function == ref::ElementwiseFunction::add || function == ref::ElementwiseFunction::mul_add)
        elementwise_tie_sums(context, f, function, total, details);

    const auto samples = static_cast<std::int64_t>(context.integer("samples"));
    const int arity = function == ref::ElementwiseFunction::mul_add ? 3 : 2;
    std::vector<HostTensor> inputs;
    for (int k = 0; k < arity; ++k) {
        inputs.push_back(generate(f.in_name, {samples}, ref::Normal{0, 1}, context.seed(), static_cast<std::uint32_t>(k)));
        read_as_claimed(inputs.back(), context.claims());
    }
    const auto outputs = context.run(invocation(instance, inputs, {samples}));
    const double u32 = ref::info(Format::f32).unit_roundoff;
    const std::string probe = "N(0,1) operands";
    for (std::size_t i = 0; i < static_cast<std::size_t>(samples); ++i) {
        const double a = inputs[0].value(i), b = inputs[1].value(i), c = arity == 3 ? inputs[2].value(i) : 0.0;
        const auto [y, oracle_error] = exact_result(function, a, b, c, f.out);
        // E: one f32 rounding of y* (none for maximum, which is exact), widened by the f64 error of y*.
        const double width = (function == ref::ElementwiseFunction::maximum ? 0.0 : u32 * std::fabs(y)) * (1 + 0x1p-50) +
                             std::fabs(oracle_error);
        const std::uint32_t got = bits_at(outputs[0], i);
        if (function == ref::ElementwiseFunction::mul_add) {
            const std::uint32_t fused = rne_bits(f.out, ref::mul_add_oracle(a, b, c, f.out).fused);
            if (got == fused && got != rne_bits(f.out, y)) {
                // The store rounded the single-rounding a b + c correctly:
                // accepted under fp_contract: on, else C-CMP-03's contraction.
                ++total.sampled;
                if (fused_accepted)
                    total.stores.add_matches(1);
                else
                    total.stores.add_explained("RN_out of the fused a b + c (contraction: C-CMP-03 judges it)");
                continue;
            }
        }
        if (StoreRecord* kept = total.judge_near(i, probe, f.out, y, width, got)) {
            kept->inputs = {element("a", i, f.in, bits_at(inputs[0], i)), element("b", i, f.in, bits_at(inputs[1], i))};
            if (arity == 3) kept->inputs.push_back(element("c", i, f.in, bits_at(inputs[2], i)));
        }
    }
    details.update(sample_details(total));
    return total.stores.verdict(instance, std::move(details));
}

}  // namespace kcs::suites
