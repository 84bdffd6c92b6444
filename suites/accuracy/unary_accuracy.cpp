// C-CMP-01 Approximation accuracy (spec/v1/classes/C-CMP-01.yaml) for the
// unary functions. Every finite pattern of f16 and bf16 at every depth; f32
// at smoke and quick the protocol's curated edges plus `samples` random
// patterns (stream 2^16) and `samples` values of uniform(-16, 16) (stream
// 2^16 + 1), at full every finite pattern. Each output is judged by the
// ulp_table model against the correctly rounded cr = RN_out(f(x)) of
// kcs::ref (unary_functions.hpp), the error recorded per sub-domain and per
// core binade, and a failure named by the signature those records show.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <sstream>
#include <numbers>
#include <stdexcept>

#include "accuracy_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "exhaustive_sweep.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../tolerance/ulp_table.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using ref::Format;
using ref::UnaryFunction;

constexpr std::uint32_t kPatternStream = ref::auxiliary_stream(0);  // stream 2^16: integer patterns
constexpr std::uint32_t kUniformStream = ref::auxiliary_stream(1);  // stream 2^16 + 1: uniform(-16, 16)
constexpr int kNeighbours = 8;                                      // each side of every curated point
constexpr std::size_t kJudgeBlock = 4096;                           // elements per oracle batch

// The inputs C-CMP-01 judges: finite, and not subnormal where a claimed
// flush excuses subnormal inputs.
bool in_domain(Format format, std::uint32_t bits, bool flush_claimed) {
    const auto c = ref::classify(format, bits);
    if (c == ref::FloatClass::quiet_nan || c == ref::FloatClass::signalling_nan || c == ref::FloatClass::infinite)
        return false;
    return !(flush_claimed && c == ref::FloatClass::subnormal);
}

// Whether f(x) is exactly zero: a zero cr there is no underflow.
bool exact_zero(UnaryFunction function, double x) {
    switch (function) {
        case UnaryFunction::tanh:
        case UnaryFunction::erf:
        case UnaryFunction::gelu: return x == 0;
        case UnaryFunction::log: return x == 1;
        default: return false;
    }
}

// x and its kNeighbours f32 neighbours each side.
void add_neighbourhood(std::vector<std::uint32_t>& out, double x) {
    // Within one sign, consecutive patterns are consecutive values; patterns
    // past the sign's end (NaNs, or the other sign's) are filtered later.
    const std::int64_t centre = ref::encode(Format::f32, x);
    for (std::int64_t p = centre - kNeighbours; p <= centre + kNeighbours; ++p)
        if (p >= 0 && p <= 0xFFFFFFFF) out.push_back(static_cast<std::uint32_t>(p));
}

// C-CMP-01's curated f32 inputs: the finite special values; for exp the
// overflow threshold, the start of the subnormal results and the underflow
// to zero with their neighbours, and RN(k ln2), RN((k + 1/2) ln2) over exp's
// finite range; for every function 1 +- 8 ulp and the neighbours of the
// usual switch points 2^-5, 0.5, 1, 2, 4, 9 (of both signs).
std::vector<std::uint32_t> curated_f32(UnaryFunction function) {
    std::vector<std::uint32_t> out;
    for (const auto& v : ref::special_values(Format::f32)) out.push_back(v.bits);
    if (function == UnaryFunction::exp) {
        const auto& f = ref::info(Format::f32);
        const double ln2 = std::numbers::ln2;
        add_neighbourhood(out, std::log(f.max_finite));                     // overflow threshold
        add_neighbourhood(out, (1 - f.exponent_bias) * ln2);                // results turn subnormal (2^-126)
        add_neighbourhood(out, (std::log2(f.min_subnormal) - 1) * ln2);     // underflow to zero (2^-150)
        const int lowest = static_cast<int>(std::log2(f.min_subnormal)) - 1;  // -150
        for (int k = lowest; k <= f.exponent_bias; ++k) {
            out.push_back(ref::encode(Format::f32, k * ln2));
            out.push_back(ref::encode(Format::f32, (k + 0.5) * ln2));
        }
    }
    for (const double point : {0x1p-5, 0.5, 1.0, 2.0, 4.0, 9.0}) {
        add_neighbourhood(out, point);
        add_neighbourhood(out, -point);
    }
    return out;
}

struct F32Inputs {
    std::vector<std::uint32_t> patterns;
    std::size_t curated = 0, random_patterns = 0, uniform_values = 0;
};

// The f32 inputs at smoke and quick, in the order curated, random, uniform.
F32Inputs sampled_f32(UnaryFunction function, std::uint64_t seed, std::int64_t samples, bool flush_claimed) {
    F32Inputs in;
    const auto keep = [&](std::uint32_t bits, std::size_t& count) {
        if (!in_domain(Format::f32, bits, flush_claimed)) return;
        in.patterns.push_back(bits);
        ++count;
    };
    for (const std::uint32_t bits : curated_f32(function)) keep(bits, in.curated);
    const auto n = static_cast<std::size_t>(samples);
    // Integers in [0, 2^32 - 1]; the non-finite ones are discarded.
    for (const std::int64_t bits : draw_integers(seed, 0, kPatternStream, 0, n, 0, 0xFFFFFFFFLL))
        keep(static_cast<std::uint32_t>(bits), in.random_patterns);
    std::vector<std::uint32_t> uniform(n);
    ref::fill_bits(Format::f32, ref::Uniform{-16, 16}, ref::TensorStream{seed, 0, kUniformStream}, 0, uniform);
    for (const std::uint32_t bits : uniform) keep(bits, in.uniform_values);
    return in;
}

// The histogram of err per element: exactly 0, then (0, 1/2], (1/2, 1],
// (1, 2], (2, 4], ... (2^(k-2), 2^(k-1)], and everything above (infinite
// errors included) in the last bucket.
constexpr std::size_t kHistogramBuckets = 14;

std::size_t histogram_bucket(double error) {
    if (error == 0) return 0;
    if (!(error <= 0x1p11)) return kHistogramBuckets - 1;
    std::size_t bucket = 1;
    for (double edge = 0.5; error > edge; edge *= 2) ++bucket;
    return bucket;
}

// histogram_bucket(h / 2) of an error of h half ulps, in integers (the
// near block's): bucket 1 holds (0, 1/2] ulp, bucket k > 1 (2^(k-3),
// 2^(k-2)], the last one everything above 2048.
std::size_t half_ulp_bucket(std::uint32_t h) {
    if (h == 0) return 0;
    return std::min<std::size_t>(1 + std::bit_width(h - 1), kHistogramBuckets - 1);
}

std::string histogram_label(std::size_t bucket) {
    if (bucket == 0) return "0";
    if (bucket == kHistogramBuckets - 1) return "> 2048";
    const auto edge = [](std::size_t b) { return std::ldexp(1.0, static_cast<int>(b) - 2); };
    std::ostringstream text;
    text << "(" << (bucket == 1 ? 0.0 : edge(bucket - 1)) << ", " << edge(bucket) << "]";
    return text.str();
}

// Whether every result of an f32 block equals its cr (any NaN where cr is a
// NaN: err 0), and every element has the first one's core binade and
// sub-domain, with x non-zero and normal and cr not subnormal: the exact
// block of a sweep, which then changes nothing in the record once its first
// element has been seen. On the encodings alone, in integer operations that
// vectorise (one clone per instruction set): the binade is x's sign and
// exponent field; a zero cr is the underflow sub-domain (exp and sigmoid
// far below zero: a quarter of the f32 domain), except log's exact zero at
// x = 1, left to the caller (the other exact zeros are at x = 0, which is
// never regular here); a numeric cr's exponent field 0xFE or 0xFF is the
// overflow edge (|cr| >= 2^127); x's field below 122 is |x| < 2^-5, for
// log 0x3F780000 < x < 0x3F840000 is |x - 1| < 2^-5 (x - 1 is exact there),
// as in UlpSubdomainRule (a NaN cr is in neither edge sub-domain there).
// Other blocks the caller judges element by element.
[[gnu::target_clones("avx512f", "avx2", "default")]] bool exact_uniform_f32_block(
    bool log_distance, const std::uint32_t* x, const std::uint32_t* got, const std::uint32_t* cr, std::size_t n) {
    const auto code = [&](std::size_t i) {
        const std::uint32_t x_field = (x[i] >> 23) & 0xFF, cr_field = (cr[i] >> 23) & 0xFF;
        const bool cr_nan = (cr[i] & 0x7FFF'FFFFu) > 0x7F80'0000u;
        const bool got_nan = (got[i] & 0x7FFF'FFFFu) > 0x7F80'0000u;
        const bool cr_zero = (cr[i] & 0x7FFF'FFFFu) == 0;
        const bool small = log_distance ? (x[i] > 0x3F78'0000u) & (x[i] < 0x3F84'0000u) : x_field < 122;
        const std::uint32_t subdomain = cr_zero ? 0u : ((cr_field >= 0xFE) & !cr_nan) ? 1u : small ? 2u : 3u;
        const bool equal = (cr_nan & got_nan) | (got[i] == cr[i]);  // a select here would not vectorise
        const bool log_exact_zero = log_distance & (x[i] == 0x3F80'0000u);
        const bool regular = (x_field != 0) & ((cr_field != 0) | cr_zero) & equal & !log_exact_zero;
        return regular ? (x[i] >> 23) << 2 | subdomain : 0xFFFF'FFFFu;
    };
    const std::uint32_t first = code(0);
    std::uint32_t differs = first == 0xFFFF'FFFFu ? 1u : 0u;
    for (std::size_t i = 1; i < n; ++i) differs |= code(i) ^ first;
    return differs == 0;
}

// Whether every element of an f32 block is regular as above (x non-zero
// and normal, cr numeric, finite and normal) with the first one's core
// binade and sub-domain, and got of cr's sign, in cr's binade or in a
// normal one next to it: its error |got - cr| / ulp(cr) is then exact in
// integers, and `half_ulps` receives it in half ulps of cr. In cr's binade
// it is the difference of the encodings; a binade below, each step counts
// half an ulp (tanh's results just below 1 where cr is 1); a binade above,
// two. The near block of a sweep whose kernel is off by an ulp or so.
[[gnu::target_clones("avx512f", "avx2", "default")]] bool near_uniform_f32_block(
    bool log_distance, const std::uint32_t* x, const std::uint32_t* got, const std::uint32_t* cr, std::size_t n,
    std::uint32_t* half_ulps) {
    constexpr std::uint32_t kBinade = 0x80'0000u;  // significand steps per binade
    const auto code = [&](std::size_t i) {
        const std::uint32_t x_field = (x[i] >> 23) & 0xFF, cr_field = (cr[i] >> 23) & 0xFF;
        const bool small = log_distance ? (x[i] > 0x3F78'0000u) & (x[i] < 0x3F84'0000u) : x_field < 122;
        const std::uint32_t subdomain = cr_field >= 0xFE ? 1u : small ? 2u : 3u;
        // got of cr's sign, normal and finite, in cr's binade or one either side.
        const std::uint32_t g = got[i] & 0x7FFF'FFFFu, cr_binade = cr[i] & 0x7F80'0000u;
        const bool near = (((got[i] ^ cr[i]) >> 31) == 0) & (g >= kBinade) & (g < 0x7F80'0000u) &
                          (g + kBinade >= cr_binade) & (g < cr_binade + 2 * kBinade);
        const bool regular = (x_field != 0) & (cr_field != 0) & (cr_field != 0xFF) & near;
        return regular ? (x[i] >> 23) << 2 | subdomain : 0xFFFF'FFFFu;
    };
    const std::uint32_t first = code(0);
    std::uint32_t differs = first == 0xFFFF'FFFFu ? 1u : 0u;
    // Two loops: each vectorises on its own, the two in one do not (GCC 12).
    for (std::size_t i = 0; i < n; ++i) differs |= code(i) ^ first;
    if (differs != 0) return false;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t g = got[i] & 0x7FFF'FFFFu, c = cr[i] & 0x7FFF'FFFFu;  // magnitudes
        const std::uint32_t g_steps = g & (kBinade - 1), c_steps = c & (kBinade - 1);
        const std::uint32_t same = 2 * (g > c ? g - c : c - g);
        const std::uint32_t below = 2 * c_steps + (kBinade - g_steps);  // cr above its binade's start, got below it
        const std::uint32_t above = 2 * (kBinade - c_steps) + 4 * g_steps;
        const std::uint32_t across = g < c ? below : above;
        half_ulps[i] = (g ^ c) < kBinade ? same : across;
    }
    return true;
}

// The judged record of a sweep: the model's tally, the outputs of the
// worst element, the histogram of errors, and how the oracle decided the results.
struct AccuracyTally {
    UlpTally ulp;
    std::uint64_t judged = 0;
    std::uint32_t worst_x = 0, worst_got = 0, worst_cr = 0;
    ref::UnaryBatchStats oracle_paths;
    std::array<std::uint64_t, kHistogramBuckets> histogram{};

    bool shortcut = true;  // the near- and exact-block shortcuts (tests compare with and without them)

    explicit AccuracyTally(double bound) : ulp(bound) {}

    // Elements first .. first + n - 1 of the sweep, their inputs x and
    // outputs got: cr by the batch oracle, then each judged. A result equal
    // to cr (err 0, the common case) only marks its sub-domain and binade.
    void add_block(std::size_t first, Format format, UnaryFunction function, const UlpSubdomainRule& rule,
                   const std::uint32_t* x, const std::uint32_t* got, std::size_t n, bool flush_claimed) {
        std::uint32_t cr[kJudgeBlock];
        oracle_paths += ref::correctly_rounded_batch(function, format, std::span(x, n), std::span(cr, n));
        const auto decode = [format](std::uint32_t bits) {
            return format == Format::f32 ? static_cast<double>(std::bit_cast<float>(bits)) : ref::decode(format, bits);
        };
        judged += n;
        // The near block (the common case, results equal to cr included):
        // its largest error at its first index, the count over the bound
        // and the histogram, all from integer differences (in half ulps).
        std::uint32_t half_ulps[kJudgeBlock];
        if (shortcut && format == Format::f32 && near_uniform_f32_block(rule.log_distance, x, got, cr, n, half_ulps)) {
            std::uint32_t most = 0;
            for (std::size_t i = 0; i < n; ++i) most = std::max(most, half_ulps[i]);
            std::size_t at = 0, over = 0;
            if (most == 0) {  // every result equal to cr
                histogram[0] += n;
                over = 0 <= ulp.bound() ? 0 : n;
            } else {
                at = static_cast<std::size_t>(std::find(half_ulps, half_ulps + n, most) - half_ulps);
                for (std::size_t i = 0; i < n; ++i) {
                    if (!(0.5 * half_ulps[i] <= ulp.bound())) ++over;
                    ++histogram[half_ulp_bucket(half_ulps[i])];
                }
            }
            const double x_at = decode(x[at]), error = 0.5 * half_ulps[at];
            if (!ulp.worst().seen || error > ulp.worst().error) {
                worst_x = x[at];
                worst_got = got[at];
                worst_cr = cr[at];
            }
            // cr is never zero here, so exact_zero does not enter the sub-domain.
            ulp.add_block(first + at, x_at, rule(x_at, decode(cr[at]), false), error, over);
            return;
        }
        // The exact block the near one leaves, of NaN, infinite or zero results
        // (log and rsqrt at x < 0, exp past overflow and underflow): every result equal to
        // cr, in the sub-domain and binade of the block's first element,
        // both already seen. Only the count of err = 0 moves.
        if (shortcut && format == Format::f32 && exact_uniform_f32_block(rule.log_distance, x, got, cr, n)) {
            const double x0 = decode(x[0]);
            if (ulp.exact_changes_nothing(x0, rule(x0, decode(cr[0]), exact_zero(function, x0)))) {
                histogram[0] += n;
                return;
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            const double x_value = decode(x[i]);
            const double cr_value = decode(cr[i]);
            const double error =
                got[i] == cr[i] && cr_value == cr_value ? 0.0 : table_error(format, got[i], cr_value, flush_claimed);
            const bool worse = !ulp.worst().seen || error > ulp.worst().error;
            ulp.add(first + i, x_value, rule(x_value, cr_value, exact_zero(function, x_value)), error);
            ++histogram[histogram_bucket(error)];
            if (worse) {
                worst_x = x[i];
                worst_got = got[i];
                worst_cr = cr[i];
            }
        }
    }

    void merge(const AccuracyTally& other) {
        const bool worse = other.ulp.worst().seen && (!ulp.worst().seen || other.ulp.worst().error > ulp.worst().error);
        ulp.merge(other.ulp);
        judged += other.judged;
        oracle_paths += other.oracle_paths;
        for (std::size_t b = 0; b < kHistogramBuckets; ++b) histogram[b] += other.histogram[b];
        if (worse) {
            worst_x = other.worst_x;
            worst_got = other.worst_got;
            worst_cr = other.worst_cr;
        }
    }

    // A sweep's checkpoint: everything above, bit for bit.
    spec::Json save() const {
        return {{"ulp", ulp.save()},
                {"judged", judged},
                {"worst", {worst_x, worst_got, worst_cr}},
                {"oracle_paths", {oracle_paths.special, oracle_paths.double_bound, oracle_paths.mpfr}},
                {"histogram", histogram}};
    }

    void restore(const spec::Json& saved) {
        ulp.restore(saved.at("ulp"));
        judged = saved.at("judged").get<std::uint64_t>();
        const auto& w = saved.at("worst");
        worst_x = w.at(0).get<std::uint32_t>();
        worst_got = w.at(1).get<std::uint32_t>();
        worst_cr = w.at(2).get<std::uint32_t>();
        const auto& p = saved.at("oracle_paths");
        oracle_paths = {p.at(0).get<std::size_t>(), p.at(1).get<std::size_t>(), p.at(2).get<std::size_t>()};
        histogram = saved.at("histogram").get<std::array<std::uint64_t, kHistogramBuckets>>();
    }

    spec::Json histogram_record() const {
        spec::Json out = spec::Json::object();
        for (std::size_t b = 0; b < kHistogramBuckets; ++b)
            if (histogram[b] != 0) out[histogram_label(b)] = histogram[b];
        return out;
    }
};

UnaryFunction function_of(const harness::Instance& instance) {
    const auto function = instance.function ? ref::parse_unary_function(*instance.function) : std::nullopt;
    if (!function)
        throw std::invalid_argument(std::string("C-CMP-01 on unary needs one of its functions; instance ")
                                        .append(instance.id)
                                        .append(" names ")
                                        .append(instance.function.value_or("none")));
    return *function;
}

}  // namespace

spec::Json unary_accuracy_record(UnaryFunction function, double bound, std::span<const std::uint32_t> x,
                                 std::span<const std::uint32_t> got, bool shortcut) {
    if (x.size() != got.size()) throw std::invalid_argument("unary_accuracy_record: x and got differ in size");
    AccuracyTally tally(bound);
    tally.shortcut = shortcut;
    const UlpSubdomainRule rule = ulp_subdomain_rule(Format::f32, ref::unary_function_name(function));
    for (std::size_t i = 0; i < x.size(); i += kJudgeBlock) {
        const std::size_t n = std::min(kJudgeBlock, x.size() - i);
        tally.add_block(i, Format::f32, function, rule, x.data() + i, got.data() + i, n, false);
    }
    return tally.save();
}

bool unary_sweep_is_exhaustive(const harness::Instance& instance) {
    // f16 and bf16 at every depth and f32 at full: every finite pattern.
    return formats_of(instance).in != Format::f32 || instance.depth == "full";
}

harness::CaseResult unary_accuracy(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const UnaryFunction function = function_of(instance);
    const std::string name(ref::unary_function_name(function));
    const double bound = ulp_table_entry(instance.contract->tolerance.params, name, f.out_name);
    const bool flush_claimed = context.claims().at("subnormals") == "flush";
    const UlpSubdomainRule rule = ulp_subdomain_rule(f.out, name);

    const bool exhaustive = unary_sweep_is_exhaustive(instance);
    if (instance.sweep && !exhaustive)
        throw std::invalid_argument("a sampled sweep depends on its seed: " + instance.id + " is not cut in parts");
    F32Inputs sampled;
    if (!exhaustive) sampled = sampled_f32(function, context.seed(), context.integer("samples"), flush_claimed);
    const sweep::EncodingDomain domain = exhaustive ? sweep::finite_patterns(f.in, flush_claimed)
                                                    : sweep::EncodingDomain::listed(std::move(sampled.patterns));
    // Calls of the lengths of `shapes` in turn, so that vector bodies and
    // scalar tails both meet inputs from all over the domain.
    std::vector<std::uint64_t> lengths;
    for (const auto& s : probe_shapes(instance, 1, "[N]")) lengths.push_back(static_cast<std::uint64_t>(s[0]));
    const sweep::ChunkPlan plan(domain.size(), sweep::chunk_elements_from_environment(), lengths);

    AccuracyTally total(bound);
    const sweep::SweepCheckpoint checkpoint{[&] { return total.save(); },
                                            [&](const spec::Json& saved) { total.restore(saved); },
                                            [&](const spec::Json& saved) {
                                                AccuracyTally part(bound);
                                                part.restore(saved);
                                                total.merge(part);
                                            }};
    const sweep::SweepTiming timing = sweep::run_sweep(context, domain, plan, sweep::sweep_label(instance),
                     [&](const sweep::Chunk& chunk, const harness::Invocation& call,
                         const std::vector<harness::HostTensor>& outputs) {
        const sweep::EncodingView x(call.inputs[0]), y(outputs[0]);
        sweep::judge_in_slices(chunk.count, AccuracyTally(bound), total,
                               [&](std::size_t begin, std::size_t end, AccuracyTally& tally) {
                                   std::uint32_t xs[kJudgeBlock], ys[kJudgeBlock];
                                   for (std::size_t i = begin; i < end; i += kJudgeBlock) {
                                       const std::size_t n = std::min(kJudgeBlock, end - i);
                                       x.read(i, std::span(xs, n));
                                       y.read(i, std::span(ys, n));
                                       tally.add_block(chunk.first + i, f.in, function, rule, xs, ys, n,
                                                       flush_claimed);
                                   }
                               });
    }, &checkpoint);

    const auto& w = total.ulp.worst();
    harness::Evidence e;
    e.figure_name = harness::figures::max_ulp_error.name;
    e.figure = w.error;
    e.bound = bound;
    e.judged = {total.judged, "inputs"};
    const std::string x_hex = hex(f.in, total.worst_x);
    e.worst = harness::WorstElement{static_cast<std::int64_t>(w.index),
                                    {std::string("x[").append(std::to_string(w.index)).append("]=").append(x_hex)},
                                    ref::decode(f.out, total.worst_cr),
                                    ref::decode(f.out, total.worst_got),
                                    hex(f.out, total.worst_got),
                                    w.error,
                                    bound};
    spec::Json inputs = exhaustive ? spec::Json{{"every_finite_pattern", f.in_name}, {"subnormals_left_out", flush_claimed}}
                                   : spec::Json{{"curated", sampled.curated},
                                                {"random_patterns", sampled.random_patterns},
                                                {"uniform_values", sampled.uniform_values}};
    e.details = {{"bound", model_citation(*instance.contract)},
                 {"function", name},
                 {"inputs", std::move(inputs)},
                 {"judged", total.judged},
                 {"chunks", plan.chunks()},
                 {"call_lengths", lengths},
                 {"sweep_timing", timing.record()},
                 {"elements_over_bound", total.ulp.failed()},
                 {"ulp_histogram", total.histogram_record()},
                 {"subdomains", subdomain_record(total.ulp)},
                 {"core_binades", core_binade_record(total.ulp)},
                 {"worst_input", x_hex},
                 {"expected_bits", hex(f.out, total.worst_cr)},
                 {"oracle_paths",
                  {{"special", total.oracle_paths.special},
                   {"double", total.oracle_paths.double_bound},
                   {"mpfr", total.oracle_paths.mpfr}}}};
    spec::Json signature_figures;
    const std::string signature = approximation_signature(total.ulp, f.in, signature_figures);
    if (!signature.empty()) e.details["signature_figures"] = std::move(signature_figures);
    harness::CaseResult result;
    if (signature.empty())
        result = passed(instance, name + " within " + std::to_string(static_cast<int>(bound)) + " ulp of cr on all " +
                          std::to_string(total.judged) + " inputs",
                      std::move(e));
    else
        result = failed(instance, signature,
                  std::to_string(total.ulp.failed()) + " of " + std::to_string(total.judged) + " results exceed " +
                      std::to_string(static_cast<int>(bound)) + " ulp of cr = RN(" + name + "(x)); worst " +
                      ref::number_text(w.error) + " ulp at x = " + x_hex + " (" +
                      std::string(to_string(ulp_subdomain(f.out, name, w.x, ref::decode(f.out, total.worst_cr),
                                                          exact_zero(function, w.x)))) +
                      ")",
                  std::move(e));
    if (result.verdict == harness::Verdict::fail && failures_only_at_subnormals(total.ulp, f.in))
        result.assumes = {"C-CMP-02"};
    result.seed_independent = exhaustive;  // every finite pattern, whatever the seed
    return result;
}

}  // namespace kcs::suites
