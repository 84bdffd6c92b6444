// C-PRC-01 Accumulator preservation (spec/v1/classes/C-PRC-01.yaml), one
// protocol for matmul, reduce_sum, softmax (the softmax denominator) and the
// norms (mean and variance of layernorm, the mean square of rmsnorm).
//
// For each K of the sweep: three data sets, (a) normal(0,1) with
// cancellation, (b) uniform(0,1) without, (c) all ones whose exact sum is K;
// run, judge every element by dot_bound, pool the normalised errors of the
// K for its statistics (where they apply), and record per K the largest |e|
// and the computed sum of ones. The signature is read off those records.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../tolerance/dot_bound.hpp"
#include "../tolerance/element_judgement.hpp"
#include "../tolerance/model_citation.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/bounds.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/suites/operator_io.hpp"
#include "precision_probes.hpp"
#include "precision_signatures.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace precision;
using tolerance::DotBound;

constexpr const char* kNarrowAccumulator = "narrow-accumulator";
constexpr const char* kStalledSumOfOnes = "stalled-sum-of-ones";
constexpr const char* kBiasedRounding = "biased-rounding";

struct DataSet {
    std::string name;
    ref::Distribution distribution;
    bool ones = false;
};

// The protocol's data sets, in its order.
std::vector<DataSet> data_sets() {
    return {
        {"normal(0,1)", ref::Normal{0.0, 1.0}}, {"uniform(0,1)", ref::Uniform{0.0, 1.0}}, {"ones", ref::kOnes, true}};
}

// What the case needs to know about its configuration.
struct Setting {
    std::int64_t K = 0;
    double u_acc = 0;
    double u_out = 0;
    tolerance::OutputUnderflow underflow;  // the output's smallest normal, and whether results below it may flush
    ref::DotStatistics statistics = ref::DotStatistics::skip;
    std::size_t outputs_per_set = 0;  // so that the data sets of a K pool min_outputs outputs
};

// dot_bound's statistics judge the reduction itself: matmul and reduce_sum
// with the output dtype equal to the accumulator's (SPEC section 3).
ref::DotStatistics statistics_for(const harness::Instance& instance) {
    const auto op = reducing_operator(instance);
    const bool output_is_reduction = op == ReducingOperator::matmul || op == ReducingOperator::reduce_sum;
    return output_is_reduction && instance.config.output == instance.config.accumulate ? ref::DotStatistics::apply
                                                                                       : ref::DotStatistics::skip;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// One data set's problem at one K, with at least `outputs` outputs.
ReductionProblem problem_for(const harness::Instance& instance, const harness::Claims& claims, const Setting& s,
                             const DataSet& set, std::uint64_t seed) {
    const auto outputs = static_cast<std::int64_t>(s.outputs_per_set);
    switch (reducing_operator(instance)) {
        case ReducingOperator::matmul: {
            auto side = static_cast<std::int64_t>(std::ceil(std::sqrt(static_cast<double>(outputs))));
            while (side * side < outputs) ++side;
            return draw_problem(instance, claims, side, s.K, side, set.distribution, seed, set.name);
        }
        case ReducingOperator::reduce_sum:
            return draw_problem(instance, claims, outputs, s.K, 1, set.distribution, seed, set.name);
        case ReducingOperator::softmax:
        case ReducingOperator::layernorm:
        case ReducingOperator::rmsnorm:
            return draw_problem(instance, claims, ceil_div(outputs, s.K), s.K, 1, set.distribution, seed, set.name);
    }
    throw std::logic_error("accumulator_preservation: unknown operator");
}

// The sum of ones an output stands for: the sum itself, or for softmax the
// denominator s behind y = 1 / s.
double computed_sum_of_ones(ReducingOperator op, double y) { return op == ReducingOperator::softmax ? 1.0 / y : y; }

// A norm of a row of ones is beta whatever the row sum came to (the
// deviations are 0 once the mean is 1, and a stalled sum gives no ones row
// a mean other than 1 below 2^p entries): its outputs show no sum of ones.
bool shows_sum_of_ones(ReducingOperator op) { return !is_norm(op); }

bool is_power_of_two(double x) {
    int exponent = 0;
    return x > 0 && std::isfinite(x) && std::frexp(x, &exponent) == 0.5;
}

// What one K showed.
struct KFigures {
    std::int64_t K = 0;
    std::size_t outputs = 0;
    std::size_t elements_failed = 0;
    double worst_ratio = 0;  // largest |y - y*| / bound
    std::string worst_set;
    harness::WorstElement worst;
    double max_abs_e = 0;  // largest |e| = |y - y*| / (gamma(K, u(acc)) M): the error's growth with K
    double ones_sum = 0;   // the computed sum of K ones furthest from K
    double ones_gap = -1;  // |ones_sum - K|
    bool stalled = false;  // a failing sum of ones stuck at a power of two below K
    harness::WorstElement stalled_element;
    ref::DotBoundResult pooled;  // the statistics over every data set of the K
    int widest_result = 0;       // the most significand bits any finite output of the K carries
};

// The significand bits a value carries: from its leading bit to its lowest
// set bit (0 for zero, inf and NaN). A running sum held in a p-bit format
// returns results of at most p bits, whatever the output dtype holds.
int significand_bits(double y) {
    if (y == 0 || !std::isfinite(y)) return 0;
    int exponent = 0;
    auto m = static_cast<std::uint64_t>(std::ldexp(std::frexp(std::fabs(y), &exponent), 53));  // exact, 53 bits
    int bits = 53;
    while ((m & 1u) == 0) {
        m >>= 1;
        --bits;
    }
    return bits;
}

harness::WorstElement element_record(const harness::Instance& instance, const ReductionProblem& problem,
                                     const harness::HostTensor& output, std::size_t i, double expected, double got,
                                     double bound) {
    harness::WorstElement w;
    w.index = static_cast<std::int64_t>(i);
    w.inputs = element_inputs(instance, problem, i);
    w.expected = expected;
    w.got = got;
    w.got_bits = hex_bits(output, i);
    w.error = std::fabs(got - expected);
    w.bound = bound;
    return w;
}

// Runs the three data sets at one K and judges them.
KFigures measure_k(harness::ProbeContext& context, const DotBound& model, const Setting& s) {
    const harness::Instance& instance = context.instance();
    const ReducingOperator op = reducing_operator(instance);
    const double g = ref::gamma(s.K, s.u_acc);
    KFigures f;
    f.K = s.K;
    std::vector<double> got, exact, magnitude;  // pooled over the data sets
    bool first = true;
    for (const DataSet& set : data_sets()) {
        const ReductionProblem problem = problem_for(instance, context.claims(), s, set, context.seed());
        const harness::HostTensor output = run_problem(context, problem);
        const std::vector<double> y = values(output);
        const ReductionReference ref = reduction_reference(problem);
        std::vector<double> bound(y.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            bound[i] = model.bound_with_underflow(s.K, s.u_acc, s.u_out, s.underflow, ref.magnitude[i], ref.value[i]);
        const tolerance::ElementJudgement j =
            tolerance::judge_elements(y, ref.value, [&](std::size_t i) { return bound[i]; });
        f.elements_failed += j.over_bound;
        if (j.worst && (first || j.worst_ratio > f.worst_ratio)) {
            first = false;
            f.worst_ratio = j.worst_ratio;
            f.worst_set = set.name;
            f.worst = element_record(instance, problem, output, *j.worst, ref.value[*j.worst], y[*j.worst],
                                     bound[*j.worst]);
        }
        // What the signature reads beside the verdict: the error's growth
        // with K, the widest result, and the sums of ones.
        for (std::size_t i = 0; i < y.size(); ++i) {
            f.widest_result = std::max(f.widest_result, significand_bits(y[i]));
            if (ref.magnitude[i] > 0)
                f.max_abs_e =
                    std::fmax(f.max_abs_e, tolerance::element_error(y[i], ref.value[i]) / (g * ref.magnitude[i]));
            if (!set.ones || !shows_sum_of_ones(op)) continue;
            const double sum = computed_sum_of_ones(op, y[i]);
            const double gap = std::fabs(sum - static_cast<double>(s.K));
            if (!(gap <= f.ones_gap)) {  // a NaN gap is the furthest of all
                f.ones_gap = gap;
                f.ones_sum = sum;
            }
            if (!f.stalled && !tolerance::element_holds(y[i], ref.value[i], bound[i]) && is_power_of_two(sum) &&
                sum < static_cast<double>(s.K)) {
                f.stalled = true;
                f.stalled_element = element_record(instance, problem, output, i, ref.value[i], y[i], bound[i]);
            }
        }
        got.insert(got.end(), y.begin(), y.end());
        exact.insert(exact.end(), ref.value.begin(), ref.value.end());
        magnitude.insert(magnitude.end(), ref.magnitude.begin(), ref.magnitude.end());
    }
    f.outputs = got.size();
    f.pooled = model.check(got, exact, magnitude, s.K, s.u_acc, s.u_out, s.statistics);
    if (f.pooled.statistics_applied && !f.pooled.count_pass)
        throw std::logic_error("accumulator_preservation: fewer outputs than min_outputs at K = " +
                               std::to_string(s.K));
    return f;
}

// The sweep's figures for the signature's condition (precision_signatures.hpp).
std::vector<AccumulatorPoint> signature_points(const std::vector<KFigures>& sweep) {
    std::vector<AccumulatorPoint> points;
    for (const auto& f : sweep)
        points.push_back({f.K, f.elements_failed, f.stalled, f.pooled.mean_pass, f.pooled.variance_pass});
    return points;
}

// The K the signature is read at: the smallest failing one, where the
// violation first shows, before its consequences at longer reductions pile
// up (an f16 accumulator fails at K = 64 by error growth and also stalls a
// sum of 4096 ones at 2048; the growth came first and says more about it).
const KFigures* first_failing(const std::vector<KFigures>& sweep) {
    const KFigures* first = nullptr;
    for (const auto& f : sweep) {
        const bool failed = f.stalled || f.elements_failed > 0 || !f.pooled.mean_pass || !f.pooled.variance_pass;
        if (failed && (!first || f.K < first->K)) first = &f;
    }
    return first;
}

spec::Json k_details(const KFigures& f) {
    spec::Json k = {{"K", f.K},
                    {"outputs", f.outputs},
                    {"elements_failed", f.elements_failed},
                    {"max_error_over_bound", f.worst_ratio},
                    {"worst_data_set", f.worst_set},
                    {"max_abs_e", f.max_abs_e},
                    {"sum_of_ones", f.ones_sum},
                    {"sum_of_ones_stalled", f.stalled},
                    {"widest_result_bits", f.widest_result}};
    if (f.pooled.statistics_applied) {
        k["mean_e"] = f.pooled.mean;
        k["mean_limit"] = f.pooled.mean_limit;
        k["variance_e"] = f.pooled.variance;
        k["variance_limit"] = f.pooled.variance_limit;
        k["statistics_outputs"] = f.pooled.statistics_outputs;
    }
    return k;
}

// The K whose statistic is furthest past its limit (ratio to the limit).
const KFigures& worst_by(const std::vector<KFigures>& sweep, double (*ratio)(const KFigures&)) {
    const KFigures* worst = &sweep.front();
    for (const auto& f : sweep)
        if (ratio(f) > ratio(*worst)) worst = &f;
    return *worst;
}

double element_ratio(const KFigures& f) { return f.worst_ratio; }
double mean_ratio(const KFigures& f) { return std::fabs(f.pooled.mean) / f.pooled.mean_limit; }
double variance_ratio(const KFigures& f) { return f.pooled.variance / f.pooled.variance_limit; }

// Diagnosis: when no output of the sweep carries more significand bits than
// some p below the output dtype's precision, the sum was held in p bits;
// the report then says what the kernel does, not only that it is wrong.
std::string effective_precision(const harness::Instance& instance, const std::vector<KFigures>& sweep,
                                harness::Evidence& evidence) {
    int widest = 0;
    for (const auto& f : sweep) widest = std::max(widest, f.widest_result);
    const int output_bits = ref::info(float_format(instance.config.output)).precision;
    if (widest == 0 || widest >= output_bits) return "";
    evidence.details["effective_accumulator_bits"] = widest;
    return "; no result carries more than " + std::to_string(widest) + " significand bits (" +
           instance.config.output + " holds " + std::to_string(output_bits) +
           "): the accumulator behaves like one of " + std::to_string(widest) + " significand bits (a " +
           std::to_string(widest - 1) + "-bit mantissa)";
}

harness::CaseResult verdict_of(const harness::Instance& instance, const std::vector<KFigures>& sweep,
                               const Setting& s) {
    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.details["statistics"] = s.statistics == ref::DotStatistics::apply ? "applied" : "not applicable";
    for (const auto& f : sweep) {
        evidence.details["sweep"].push_back(k_details(f));
        evidence.judged.count += f.outputs;
    }
    evidence.judged.unit = "elements";

    const KFigures* failing = first_failing(sweep);
    spec::Json figures;
    const std::string signature = accumulator_signature(signature_points(sweep), figures);
    if (failing) evidence.details["signature_figures"] = figures;
    const KFigures& f = failing ? *failing : worst_by(sweep, element_ratio);
    evidence.details["judged_K"] = f.K;
    evidence.figure_name = harness::figures::dot_error.name;
    evidence.figure = f.worst_ratio;
    evidence.bound = 1.0;
    evidence.worst = f.worst;
    evidence.details["worst_data_set"] = f.worst_set;

    const std::string at = "K=" + std::to_string(f.K) + ": ";
    std::string message;
    if (signature.empty()) {
        message = "every element within dot_bound and the statistics within their limits over the K sweep";
    } else if (signature == kStalledSumOfOnes) {
        const double stall = computed_sum_of_ones(reducing_operator(instance), f.stalled_element.got);
        evidence.worst = f.stalled_element;
        evidence.details["worst_data_set"] = "ones";
        message = at + "a sum of " + std::to_string(f.K) + " ones stalled at " + ref::number_text(stall) + " (2^" +
                  std::to_string(std::ilogb(stall)) + "): an accumulator with " + std::to_string(std::ilogb(stall)) +
                  " significand bits, not " + accumulate_dtype(instance) + effective_precision(instance, sweep, evidence);
    } else if (f.elements_failed > 0) {
        message = at + std::to_string(f.elements_failed) + " of " + std::to_string(f.outputs) +
                  " elements beyond dot_bound, worst |y - y*| = " + ref::number_text(f.worst.error) + " against " +
                  ref::number_text(f.worst.bound) + " (" + f.worst_set + ")" +
                  (signature == kNarrowAccumulator
                       ? ": the error grows like a narrower accumulator's" + effective_precision(instance, sweep, evidence)
                       : std::string(", but not at every larger K: a failure that does not grow with K"));
    } else {
        const bool mean = signature == kBiasedRounding;
        evidence.figure_name = mean ? harness::figures::error_mean.name : harness::figures::error_variance.name;
        evidence.figure = mean ? mean_ratio(f) : variance_ratio(f);
        message = at + "every element within dot_bound, but the " +
                  (mean ? "mean of e is " + ref::number_text(f.pooled.mean) + " against a limit of " +
                              ref::number_text(f.pooled.mean_limit)
                        : "variance of e is " + ref::number_text(f.pooled.variance) + " against a limit of " +
                              ref::number_text(f.pooled.variance_limit));
    }
    return harness::case_verdict(instance, signature, message, std::move(evidence));
}

}  // namespace

harness::CaseResult accumulator_preservation(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const DotBound model = DotBound::from_catalog(*instance.contract);
    const std::size_t sets = data_sets().size();

    Setting s;
    s.u_acc = unit_roundoff(accumulate_dtype(instance));
    s.u_out = unit_roundoff(instance.config.output);
    s.underflow = tolerance::OutputUnderflow::of(float_format(instance.config.output), context.claims());
    s.statistics = statistics_for(instance);
    s.outputs_per_set = (model.params.min_outputs + sets - 1) / sets;

    std::vector<KFigures> sweep;
    for (const std::int64_t K : context.int_list("K")) {
        s.K = K;
        sweep.push_back(measure_k(context, model, s));
    }
    if (sweep.empty()) throw std::invalid_argument(instance.id + ": the K sweep is empty");
    return verdict_of(instance, sweep, s);
}

}  // namespace kcs::suites
