// C-PRC-03 Declared compute precision, no silent coercion
// (spec/v1/classes/C-PRC-03.yaml) for matmul.
//
// Exactness probes whose y* is known in closed form and obtained exactly by
// any evaluation that uses the inputs at their declared precision and range:
//   identity   X * I and I * X, X random finite normal bit patterns, at every
//              shape [M, K, N] of the `shapes` parameter (I ones on its
//              diagonal: y* is X where the diagonal reaches, zeros elsewhere);
//   low-bit    entries +-(1 + 2^-j) 2^e, j = 1 .. p_in - 1, times I, on either
//              side (the operands of probe j have j + 1 significant bits);
//   perturbation (f32 inputs) A of 1 and 1 + 2^-20, B of 0 and 1 with at most
//              8 ones per column;
//   range      (f32 inputs) X with entries in [6.6e4, 1e5] and others up to
//              2^100 (one per row, on the diagonal), times I.
// Every output must equal y* as a number; p_eff, the largest p such that
// every probe element whose operands have at most p significant bits is
// exact, must reach min_mantissa_bits of the input dtype.
//
// Streams of the catalog generator (SPEC section 4): X of the identity
// probes is tensor 0 (X * I) or 1 (I * X) in the value stream; the other
// constructions draw from auxiliary streams 2^16 + s of the operand they
// fill: s = 0 low-bit signs and exponents, 1 perturbation patterns, 2 the
// range probe's entries in [6.6e4, 1e5], 3 its larger ones (its other
// entries come from the value stream of tensor 0).
// The low-bit probes' exponents e lie in [-14, 15], the binades in which
// f32, f16 and bf16 are all normal, so that they measure precision alone;
// the range probe measures range.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../tolerance/exact_when_representable.hpp"
#include "../tolerance/model_citation.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "precision_probes.hpp"
#include "precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "compute_precision_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "reduction_problems.hpp"

namespace kcs::suites::precision {

namespace {

using tolerance::EffectivePrecision;

constexpr const char* kReducedInputMantissa = "reduced-input-mantissa";

// The binades [2^e, 2^(e+1)) every catalog format holds as normal numbers
// (f16's: e in [-14, 15]).
struct ExponentRange {
    int lowest = 0;
    int highest = 0;
};
ExponentRange common_normal_binades() {
    ExponentRange r{-1000, 1000};
    for (const ref::Format f : {ref::Format::f32, ref::Format::f16, ref::Format::bf16}) {
        r.lowest = std::max(r.lowest, std::ilogb(ref::info(f).min_normal));
        r.highest = std::min(r.highest, std::ilogb(ref::info(f).max_finite));
    }
    return r;
}

enum Stream : std::uint32_t {
    kLowBitStream = 0,
    kPerturbationStream = 1,
    kRangeUniformStream = 2,
    kRangeLargeStream = 3
};

std::size_t count(std::int64_t x) { return static_cast<std::size_t>(x); }

ExactnessProbe probe_named(std::string name, std::size_t operand, std::int64_t m, std::int64_t k, std::int64_t n) {
    ExactnessProbe p;
    p.name = std::move(name);
    p.measured_operand = operand;
    p.m = m;
    p.k = k;
    p.n = n;
    return p;
}

// [rows, columns], ones on the diagonal.
std::vector<double> identity_matrix(std::int64_t rows, std::int64_t columns) {
    std::vector<double> eye(count(rows * columns), 0.0);
    for (std::int64_t i = 0; i < std::min(rows, columns); ++i) eye[count(i * columns + i)] = 1.0;
    return eye;
}
std::vector<double> identity_matrix(std::int64_t size) { return identity_matrix(size, size); }

// Draws `n` integers in [lo, hi] from stream `stream` of input tensor `tensor`.
std::vector<std::int64_t> draw(std::uint64_t seed, std::uint32_t tensor, std::uint32_t stream, std::int64_t lo,
                               std::int64_t hi, std::size_t n) {
    return ref::fill_integers(ref::Integers{lo, hi}, ref::TensorStream{seed, tensor, stream}, n);
}

// Random finite, normal, non-zero values of `in` whose magnitudes lie in the
// normal range of `out`: a uniformly drawn sign, exponent and trailing significand.
std::vector<double> random_normal_values(ref::Format in, ref::Format out, std::size_t n, std::uint64_t seed,
                                         std::uint32_t tensor) {
    const ref::FormatInfo& fi = ref::info(in);
    const ref::FormatInfo& fo = ref::info(out);
    const int trailing = fi.precision - 1;
    std::vector<std::uint32_t> exponents;  // biased exponent fields admitted
    for (std::uint32_t field = 1; field < (1u << fi.exponent_bits) - 1; ++field) {
        const double low = std::ldexp(1.0, static_cast<int>(field) - fi.exponent_bias);
        const double high =
            std::ldexp(2.0 - std::ldexp(1.0, 1 - fi.precision), static_cast<int>(field) - fi.exponent_bias);
        if (low >= fo.min_normal && high <= fo.max_finite) exponents.push_back(field);
    }
    const auto choices = static_cast<std::int64_t>(2 * exponents.size()) << trailing;
    std::vector<double> values;
    for (std::int64_t v : draw(seed, tensor, ref::kValueStream, 0, choices - 1, n)) {
        const auto mantissa = static_cast<std::uint32_t>(v & ((std::int64_t{1} << trailing) - 1));
        v >>= trailing;
        const std::uint32_t field = exponents[count(v % static_cast<std::int64_t>(exponents.size()))];
        const std::uint32_t sign = static_cast<std::uint32_t>(v / static_cast<std::int64_t>(exponents.size()));
        const std::uint32_t bits = sign << (fi.storage_bits - 1) | field << trailing | mantissa;
        values.push_back(ref::decode(in, bits));
    }
    return values;
}

void fill_expected(ExactnessProbe& p, const std::vector<double>& x) {
    p.expected = x;
    for (const double v : x) p.operand_bits.push_back(tolerance::significant_bits(v));
    p.low_bit_j.assign(x.size(), 0);
}

}  // namespace

ExactnessProbe identity_probe(ref::Format in, ref::Format out, MatmulShape shape, std::uint64_t seed,
                              std::size_t operand) {
    const auto [m, k, n] = shape;
    std::string name = operand == 0 ? "X * I " : "I * X ";
    const std::vector<std::int64_t> extents{m, k, n};
    ExactnessProbe p = probe_named(name.append(exactness::shape_text(extents)), operand, m, k, n);
    const auto x = random_normal_values(in, out, count(operand == 0 ? m * k : k * n), seed,
                                        static_cast<std::uint32_t>(operand));
    (operand == 0 ? p.a : p.b) = x;
    (operand == 0 ? p.b : p.a) = operand == 0 ? identity_matrix(k, n) : identity_matrix(m, k);
    std::vector<double> y(count(m * n), 0.0);  // X's entries where I's diagonal reaches, zeros elsewhere
    for (std::int64_t r = 0; r < m; ++r)
        for (std::int64_t c = 0; c < n; ++c)
            if (operand == 0 ? c < k : r < k) y[count(r * n + c)] = operand == 0 ? x[count(r * k + c)] : x[count(r * n + c)];
    fill_expected(p, y);
    return p;
}

ExactnessProbe low_bit_probe(int input_precision, std::int64_t size, std::uint64_t seed, std::size_t operand) {
    const std::int64_t blocks = input_precision - 1;
    const ExponentRange binades = common_normal_binades();
    const std::int64_t exponents = binades.highest - binades.lowest + 1;
    ExactnessProbe p = probe_named(operand == 0 ? "low-bit A * I" : "low-bit I * B", operand, 0, size, 0);
    p.m = operand == 0 ? blocks * size : size;
    p.n = operand == 0 ? size : blocks * size;
    const std::size_t elements = count(p.m * p.n);
    const auto draws = draw(seed, static_cast<std::uint32_t>(operand), ref::auxiliary_stream(kLowBitStream), 0,
                            2 * exponents - 1, elements);
    std::vector<double> x(elements);
    std::vector<int> js(elements);
    for (std::size_t i = 0; i < elements; ++i) {
        const std::size_t row = i / count(p.n), col = i % count(p.n);
        const int j = 1 + static_cast<int>((operand == 0 ? row : col) / count(size));
        const double sign = draws[i] % 2 == 0 ? 1.0 : -1.0;
        const int e = binades.lowest + static_cast<int>(draws[i] / 2);
        x[i] = sign * std::ldexp(1.0 + std::ldexp(1.0, -j), e);
        js[i] = j;
    }
    (operand == 0 ? p.a : p.b) = x;
    (operand == 0 ? p.b : p.a) = identity_matrix(size);
    fill_expected(p, x);
    p.low_bit_j = js;
    return p;
}

namespace {

// A of 1 and 1 + 2^-20, B of 0 and 1 keeping the first 8 ones of each column:
// every partial sum is a multiple of 2^-20 below 2^4 (24 bits, exact in f32).
ExactnessProbe perturbation_probe(std::int64_t size, std::uint64_t seed) {
    constexpr int kOnesPerColumn = 8;
    const double perturbed = 1.0 + 0x1p-20;
    ExactnessProbe p = probe_named("perturbation 1 + 2^-20", 0, size, size, size);
    for (const auto v : draw(seed, 0, ref::auxiliary_stream(kPerturbationStream), 0, 1, count(size * size)))
        p.a.push_back(v == 1 ? perturbed : 1.0);
    const auto pattern = draw(seed, 1, ref::auxiliary_stream(kPerturbationStream), 0, 1, count(size * size));
    p.b.assign(count(size * size), 0.0);
    for (std::int64_t col = 0; col < size; ++col) {
        int ones = 0;
        for (std::int64_t k = 0; k < size && ones < kOnesPerColumn; ++k)
            if (pattern[count(k * size + col)] == 1) {
                p.b[count(k * size + col)] = 1.0;
                ++ones;
            }
    }
    for (std::int64_t row = 0; row < size; ++row)
        for (std::int64_t col = 0; col < size; ++col) {
            int ones = 0, perturbations = 0, bits = 0;
            for (std::int64_t k = 0; k < size; ++k) {
                if (p.b[count(k * size + col)] == 0) continue;
                const double a = p.a[count(row * size + k)];
                ++ones;
                perturbations += a == perturbed;
                bits = std::max(bits, tolerance::significant_bits(a));
            }
            p.expected.push_back(ones + std::ldexp(perturbations, -20));  // a count plus 2^-20 times a count
            p.operand_bits.push_back(bits);
        }
    p.low_bit_j.assign(p.expected.size(), 0);
    return p;
}

}  // namespace

// X times I, with one range entry per row, on the diagonal (compute_precision_probes.hpp).
ExactnessProbe range_probe(std::int64_t size, std::uint64_t seed) {
    const int lowest_large_exponent = std::ilogb(ref::info(ref::Format::f16).max_finite) + 1;  // 2^16 > 65504
    constexpr int kHighestLargeExponent = 99;                                                  // below 2^100
    ExactnessProbe p = probe_named("range", 0, size, size, size);
    p.range = true;
    const std::size_t n = count(size * size);
    const auto near = ref::fill_values(ref::Format::f32, ref::Uniform{6.6e4, 1e5},
                                       ref::TensorStream{seed, 0, ref::auxiliary_stream(kRangeUniformStream)}, n);
    const auto filler =
        ref::fill_values(ref::Format::f32, ref::Uniform{1.0, 2.0}, ref::TensorStream{seed, 0, ref::kValueStream}, n);
    const std::int64_t exponents = kHighestLargeExponent - lowest_large_exponent + 1;
    const auto large = draw(seed, 0, ref::auxiliary_stream(kRangeLargeStream), 0, (2 * exponents << 23) - 1, n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t row = i / count(size), col = i % count(size);
        if (row != col) {
            p.a.push_back(filler[i]);
            continue;
        }
        const std::int64_t v = large[i];
        const double significand = 1.0 + std::ldexp(static_cast<double>(v & ((1 << 23) - 1)), -23);
        const std::int64_t rest = v >> 23;
        const double sign = rest % 2 == 0 ? 1.0 : -1.0;
        const int e = lowest_large_exponent + static_cast<int>(rest / 2);
        p.a.push_back(row % 2 == 0 ? near[i] : sign * std::ldexp(significand, e));
    }
    p.b = identity_matrix(size);
    fill_expected(p, p.a);
    return p;
}

namespace {

using tolerance::ExactWhenRepresentable;

// The identity probes at every shape [M, K, N] of `shapes`, the others at M x M.
std::vector<ExactnessProbe> probes_for(const harness::Instance& instance, std::int64_t size, std::uint64_t seed) {
    const ref::Format in = float_format(instance.config.inputs.at(0));
    const ref::Format out = float_format(instance.config.output);
    const int precision = ref::info(in).precision;
    std::vector<ExactnessProbe> probes;
    for (const auto& s : exactness::probe_shapes(instance, 3, "[M, K, N]"))
        for (const std::size_t operand : {0u, 1u}) probes.push_back(identity_probe(in, out, {s[0], s[1], s[2]}, seed, operand));
    probes.push_back(low_bit_probe(precision, size, seed, 0));
    probes.push_back(low_bit_probe(precision, size, seed, 1));
    if (in == ref::Format::f32) {
        probes.push_back(perturbation_probe(size, seed));
        probes.push_back(range_probe(size, seed));
    }
    return probes;
}

// The probe's closed form must be what the oracle computes from the exact
// inputs, and representable in the output dtype; otherwise the probe is
// wrong, not the adapter.
void confirm_closed_form(const ExactnessProbe& p, ref::Format out) {
    const auto oracle = ref::matmul_oracle(p.a, p.b, {1, count(p.m), count(p.k), count(p.n)});
    for (std::size_t i = 0; i < p.expected.size(); ++i)
        if (oracle.value[i] != p.expected[i] || ref::round_to(out, p.expected[i]) != p.expected[i])
            throw std::logic_error("C-PRC-03 probe '" + p.name + "': y* of element " + std::to_string(i) +
                                   " is not exact and representable");
}

// What one probe showed.
struct ProbeFigures {
    std::string name;
    std::size_t measured_operand = 0;
    tolerance::ExactnessTally tally;
    std::vector<int> inexact_j;  // j of every inexact low-bit element
    spec::Json mismatches = spec::Json::array();  // the first kMismatchesListed, with expected and received bits
};

// Mismatches listed per probe in the evidence; the rest are counted (a
// coerced probe mismatches nearly everywhere, and the inputs of each
// regenerate from the case seed).
constexpr std::size_t kMismatchesListed = 16;

std::vector<std::string> probe_inputs(const harness::Instance& instance, const ExactnessProbe& p, std::size_t i) {
    const std::int64_t row = static_cast<std::int64_t>(i / count(p.n)), col = static_cast<std::int64_t>(i % count(p.n));
    const bool all = 2 * p.k <= 64;  // SPEC section 9; beyond, the entries of the non-zero products
    std::vector<std::string> listed;
    for (std::int64_t k = 0; k < p.k; ++k) {
        const double a = p.a[count(row * p.k + k)], b = p.b[count(k * p.n + col)];
        if (!all && a * b == 0) continue;
        listed.push_back("A[" + std::to_string(row) + "," + std::to_string(k) +
                         "]=" + value_bits(instance.config.inputs[0], a));
        listed.push_back("B[" + std::to_string(k) + "," + std::to_string(col) +
                         "]=" + value_bits(instance.config.inputs[1], b));
    }
    return listed;
}

ProbeFigures run_probe(harness::ProbeContext& context, const ExactnessProbe& p) {
    const harness::Instance& instance = context.instance();
    const ref::Format out = float_format(instance.config.output);
    confirm_closed_form(p, out);
    std::vector<harness::HostTensor> inputs;
    inputs.push_back(from_values(instance.config.inputs.at(0), {p.m, p.k}, p.a));
    inputs.push_back(from_values(instance.config.inputs.at(1), {p.k, p.n}, p.b));
    const auto outputs = context.run(invocation(instance, std::move(inputs), {p.m, p.n}));
    const std::vector<double> y = values(outputs.at(0));

    ProbeFigures f;
    f.name = p.name;
    f.measured_operand = p.measured_operand;
    for (std::size_t i = 0; i < y.size(); ++i) {
        const bool exact = f.tally.judge(y[i], p.expected[i], p.operand_bits[i], p.range, [&] {
            harness::WorstElement w;
            w.index = static_cast<std::int64_t>(i);
            w.inputs = probe_inputs(instance, p, i);
            w.got_bits = hex_bits(outputs.at(0), i);
            return w;
        });
        if (exact) continue;
        if (p.low_bit_j[i] > 0) f.inexact_j.push_back(p.low_bit_j[i]);
        if (f.mismatches.size() < kMismatchesListed)
            f.mismatches.push_back({{"index", i},
                                    {"expected_bits", value_bits(instance.config.output, p.expected[i])},
                                    {"got_bits", hex_bits(outputs.at(0), i)},
                                    {"operand_bits", p.operand_bits[i]}});
    }
    return f;
}

spec::Json probe_details(const ProbeFigures& f) {
    spec::Json d = {{"probe", f.name},
                    {"operand", f.measured_operand == 0 ? "A" : "B"},
                    {"elements", f.tally.elements},
                    {"inexact", f.tally.inexact}};
    if (!f.inexact_j.empty()) {
        std::vector<int> js = f.inexact_j;
        std::sort(js.begin(), js.end());
        js.erase(std::unique(js.begin(), js.end()), js.end());
        d["inexact_j"] = js;  // low-bit probes: the j whose 1 + 2^-j did not survive
    }
    if (f.tally.range_coerced > 0) d["range_coerced"] = f.tally.range_coerced;
    if (f.tally.inexact > 0) d["mismatches"] = f.mismatches;
    return d;
}

harness::CaseResult verdict_of(const harness::Instance& instance, const ExactWhenRepresentable& model,
                               const std::vector<ProbeFigures>& probes) {
    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    // p_eff per operand, each against its own dtype's requirement.
    int worst_margin = 0;
    std::size_t worst_operand = 0;
    int p_eff[2] = {0, 0};
    std::size_t exact_above[2] = {0, 0};
    for (std::size_t operand = 0; operand < 2; ++operand) {
        const std::string& dtype = instance.config.inputs.at(operand);
        EffectivePrecision precision(ref::info(float_format(dtype)).precision);
        for (const auto& f : probes)
            if (f.measured_operand == operand) f.tally.feed(precision);
        p_eff[operand] = precision.value();
        exact_above[operand] = precision.exact_above();
        const int margin = precision.value() - model.required_bits(dtype);
        evidence.details["p_eff"][operand == 0 ? "A" : "B"] = {{"p_eff", precision.value()},
                                                               {"required", model.required_bits(dtype)}};
        if (operand == 0 || margin < worst_margin) {
            worst_margin = margin;
            worst_operand = operand;
        }
    }
    const std::string& worst_dtype = instance.config.inputs.at(worst_operand);
    evidence.figure_name = harness::figures::p_eff.name;
    evidence.figure = p_eff[worst_operand];
    evidence.bound = model.required_bits(worst_dtype);

    const ProbeFigures* coerced = nullptr;
    const ProbeFigures* inexact = nullptr;
    evidence.judged.unit = "elements";
    for (const auto& f : probes) {
        evidence.details["probes"].push_back(probe_details(f));
        evidence.judged.count += f.tally.elements;
        if (f.tally.range_coerced > 0 && !coerced) coerced = &f;
        if (f.tally.inexact > 0 && (!inexact || *f.tally.fewest_inexact_bits < *inexact->tally.fewest_inexact_bits))
            inexact = &f;
    }
    const std::string operand_name = worst_operand == 0 ? "A" : "B";
    spec::Json figures;
    const std::size_t coerced_count = coerced ? coerced->tally.range_coerced : 0;
    const std::size_t inexact_count = inexact ? inexact->tally.inexact : 0;
    const std::string signature =
        compute_precision_signature({coerced_count, p_eff[worst_operand], model.required_bits(worst_dtype),
                                     exact_above[worst_operand], inexact_count},
                                    figures);
    if (!signature.empty()) evidence.details["signature_figures"] = figures;
    if (coerced) {
        evidence.worst = coerced->tally.first_coerced;
        return harness::case_verdict(instance, signature,
                            std::to_string(coerced->tally.range_coerced) +
                                " range-probe outputs with |y*| above 65504 came back as " +
                                coerced->tally.first_coerced.got_bits + " (inf or 65504): " + instance.config.inputs.at(0) +
                                " inputs were converted to f16",
                            std::move(evidence));
    }
    if (inexact) evidence.worst = inexact->tally.first_inexact;
    if (worst_margin < 0)
        return harness::case_verdict(instance, signature,
                            "p_eff of " + operand_name + " is " + std::to_string(p_eff[worst_operand]) +
                                " significand bits, below the " + std::to_string(model.required_bits(worst_dtype)) +
                                " of " + worst_dtype +
                                (signature == kReducedInputMantissa
                                     ? ": its inputs were rounded to a narrower format before multiplying"
                                     : "; but " + std::to_string(exact_above[worst_operand]) +
                                           " elements with wider operands came back exact: not a narrower "
                                           "format's cut"),
                            std::move(evidence));
    if (inexact)
        return harness::case_verdict(instance, signature,
                            "probe '" + inexact->name + "': " + std::to_string(inexact->tally.inexact) +
                                " outputs differ from their exact value although p_eff meets its bound",
                            std::move(evidence));
    return harness::case_verdict(
        instance, "",
        "every exactness probe exact; p_eff " + std::to_string(p_eff[0]) + " (A), " + std::to_string(p_eff[1]) + " (B)",
        std::move(evidence));
}

}  // namespace

}  // namespace kcs::suites::precision

namespace kcs::suites {

harness::CaseResult declared_compute_precision(harness::ProbeContext& context) {
    using namespace precision;
    const harness::Instance& instance = context.instance();
    if (instance.op->id != "matmul")
        throw std::invalid_argument(instance.id + ": this C-PRC-03 probe measures matmul only");
    const ExactWhenRepresentable model = ExactWhenRepresentable::from_catalog(*instance.contract);
    std::vector<ProbeFigures> figures;
    for (const ExactnessProbe& p : probes_for(instance, context.integer("M"), context.seed()))
        figures.push_back(run_probe(context, p));
    return verdict_of(instance, model, figures);
}

}  // namespace kcs::suites
