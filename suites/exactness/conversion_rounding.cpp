// C-PRC-04 Conversion rounding (spec/v1/classes/C-PRC-04.yaml) for the
// operators that store f16 or bf16 outputs computed in f32: matmul,
// reduce_sum, softmax, layernorm and rmsnorm. The model is bitwise_rne: each stored value is
// RN_out of the value being stored, bit for bit. That value is not
// observable, so the protocol pins it down two ways:
//   (a) two-addend sums, exact in f32 in any order, that fall on a tie of
//       the target dtype, next to one, or at its overflow threshold
//       (matmul and reduce_sum), at every shape of the `shapes` parameter;
//   (b) on `samples` N(0,1) outputs, every output whose y* lies farther from
//       each rounding midpoint than the operator's accumulator-side bound
//       (reduce_sum, softmax and the norms; matmul's catalog entry gives no
//       samples).
// Mismatches are classified by how the stored value relates to RNE.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>

#include "exactness_common.hpp"
#include "exactness_probes.hpp"
#include "../accuracy/store_judging.hpp"
#include "kcs/reference/bounds.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../tolerance/accumulator_side_bound.hpp"
#include "../tolerance/bitwise_rne.hpp"
#include "../tolerance/dot_bound.hpp"
#include "../tolerance/stability_bound.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;

// The tie sums run at every shape of the `shapes` parameter ([M, K, N] for
// matmul, [rows, K] for reduce_sum), across the sizes at which libraries
// switch kernels: rows cycle through the sums (as many calls as it takes
// for every sum to be stored at that shape), the rest of each row is +0.
constexpr std::size_t kRowRotation = 7;  // rows shift their addends, so that many positions get one

// The probe's shapes, each extent checked: K >= 2 holds a sum's two addends.
std::vector<std::vector<std::int64_t>> tie_shapes(const harness::Instance& instance, std::size_t rank) {
    const std::string layout = rank == 3 ? "[M, K, N]" : "[rows, K]";
    const auto shapes = probe_shapes(instance, rank, layout);
    for (const auto& s : shapes)
        if (s[1] < 2)
            throw std::invalid_argument(instance.id + ": C-PRC-04 shapes " + layout +
                                        " need K >= 2 (a tie sum's two addends)");
    return shapes;
}

// Row r of a call holds sum `first + r` (cyclically), its addends spread
// from the first to the last position, rotated by the row.
std::vector<double> tie_rows(const std::vector<TieSum>& sums, std::size_t first, std::size_t rows, std::size_t K) {
    std::vector<double> x(rows * K, 0.0);
    for (std::size_t r = 0; r < rows; ++r) {
        const auto& a = sums[(first + r) % sums.size()].addends;
        const std::size_t n = a.size();
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t spread = n == 1 ? 0 : j * (K - 1) / (n - 1);
            x[r * K + (spread + kRowRotation * r) % K] = a[j];
        }
    }
    return x;
}

void require_exact(std::span<const double> terms, const std::string& what) {
    if (!exact_in_f32_any_order(terms))
        throw std::logic_error("C-PRC-04 probe construction: " + what + " is not exact in f32 in every order");
}

// One rounding, the store's, only where every term is zero or a normal value
// of the output dtype: a partial sum kept in that dtype (split-K) would round
// a term that is not (x 2^-3 makes some f16 addends subnormal), which is
// C-PRC-01's and C-ORD-01's to judge, not the store's.
bool terms_normal_in(ref::Format out, std::span<const double> terms) {
    return std::all_of(terms.begin(), terms.end(), [&](double t) {
        return t == 0 || (ref::round_to(out, t) == t && std::fabs(t) >= ref::info(out).min_normal &&
                          std::fabs(t) <= ref::info(out).max_finite);
    });
}

// ---------------------------------------------------------------- kind (a) per operator

// matmul: A's rows are the tie sums, B's columns constants 1, 2^-1, 2^-3
// (cyclically), so each output is a tie sum scaled by a power of two (ties
// stay ties).
void matmul_tie_sums(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally, spec::Json& details) {
    const auto sums = tie_sums(f.in);
    const std::vector<double> column_scales{1, 0.5, 0.125};
    const std::vector<std::string> scale_names{"", " x 2^-1", " x 2^-3"};
    std::size_t outputs_judged = 0, outputs_left_out = 0;
    for (const auto& s : tie_shapes(context.instance(), 3)) {
        const std::int64_t m = s[0], K = s[1], n = s[2];
        const auto uK = static_cast<std::size_t>(K), un = static_cast<std::size_t>(n);
        std::vector<double> b(uK * un);
        for (std::size_t k = 0; k < uK; ++k)
            for (std::size_t j = 0; j < un; ++j) b[k * un + j] = column_scales[j % column_scales.size()];
        const HostTensor b_tensor = from_values(context.instance().config.inputs[1], {K, n}, b);
        const auto b_values = values(b_tensor);
        for (std::size_t first = 0; first < sums.size(); first += static_cast<std::size_t>(m)) {
            const HostTensor a_tensor =
                from_values(f.in_name, {m, K}, tie_rows(sums, first, static_cast<std::size_t>(m), uK));
            const auto a_values = values(a_tensor);
            const auto oracle = ref::matmul_oracle(a_values, b_values, {1, static_cast<std::size_t>(m), uK, un});
            const auto outputs = context.run(invocation(context.instance(), {a_tensor, b_tensor}, {m, n}));
            for (std::size_t i = 0; i < oracle.value.size(); ++i) {
                const std::size_t row = i / un, col = i % un;
                const TieSum& sum = sums[(first + row) % sums.size()];
                std::vector<double> terms(uK);
                for (std::size_t k = 0; k < uK; ++k) terms[k] = a_values[row * uK + k] * b_values[k * un + col];
                require_exact(terms, sum.name);
                if (!terms_normal_in(f.out, terms)) {
                    ++outputs_left_out;
                    continue;
                }
                StoreRecord r = store(i, sum.name + scale_names[col % scale_names.size()] + " " + shape_text(s),
                                      oracle.value[i], f.out, bits_at(outputs[0], i));
                ++outputs_judged;
                if (StoreRecord* kept = tally.judge(std::move(r), true)) {
                    kept->inputs = depends_on_range("A", a_tensor, row * uK, uK);
                    std::vector<std::size_t> column(uK);
                    for (std::size_t k = 0; k < uK; ++k) column[k] = k * un + col;
                    const auto b_inputs = depends_on("B", b_tensor, column);
                    kept->inputs.insert(kept->inputs.end(), b_inputs.begin(), b_inputs.end());
                }
            }
        }
    }
    details["tie_sums"] = sums.size();
    details["tie_outputs"] = outputs_judged;
    details["tie_outputs_left_out_terms_not_normal_in_the_output_dtype"] = outputs_left_out;
}

void reduce_sum_tie_sums(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally,
                         spec::Json& details) {
    const auto sums = tie_sums(f.in);
    std::size_t outputs_judged = 0, outputs_left_out = 0;
    for (const auto& s : tie_shapes(context.instance(), 2)) {
        const std::int64_t rows = s[0], K = s[1];
        const auto uK = static_cast<std::size_t>(K);
        for (std::size_t first = 0; first < sums.size(); first += static_cast<std::size_t>(rows)) {
            const HostTensor x = from_values(f.in_name, {rows, K}, tie_rows(sums, first, static_cast<std::size_t>(rows), uK));
            const auto x_values = values(x);
            const auto oracle = ref::reduce_sum_oracle(x_values, {static_cast<std::size_t>(rows), uK});
            const auto outputs = context.run(invocation(context.instance(), {x}, {rows}));
            for (std::size_t r = 0; r < oracle.value.size(); ++r) {
                const TieSum& sum = sums[(first + r) % sums.size()];
                const auto terms = std::span(x_values).subspan(r * uK, uK);
                require_exact(terms, sum.name);
                if (!terms_normal_in(f.out, terms)) {
                    ++outputs_left_out;
                    continue;
                }
                StoreRecord record = store(r, sum.name + " " + shape_text(s), oracle.value[r], f.out, bits_at(outputs[0], r));
                ++outputs_judged;
                if (StoreRecord* kept = tally.judge(std::move(record), true))
                    kept->inputs = depends_on_range("x", x, r * uK, uK);
            }
        }
    }
    details["tie_sums"] = sums.size();
    details["tie_outputs"] = outputs_judged;
    details["tie_outputs_left_out_terms_not_normal_in_the_output_dtype"] = outputs_left_out;
}

// ---------------------------------------------------------------- check (b)

// Row lengths of the sampled N(0,1) data sets (the catalog gives the number
// of outputs, not their shape). reduce_sum: 16, a real f32 reduction whose E
// stays far below the f16 and bf16 output spacing, so that nearly every
// output qualifies, while each output costs only 16 normal draws (2^18
// outputs at quick depth). softmax: 64, each input an output.
constexpr std::int64_t kSumSampleRowLength = 16;
constexpr std::int64_t kSoftmaxSampleRowLength = 64;
// The norms: rows of 64, gamma and beta from normal(0,1) too (inputs 1, 2).
constexpr std::int64_t kNormSampleRowLength = 64;
// Outputs per invocation, so that quick (2^18) and full (2^20 samples) depths run
// in buffers of a modest size.
constexpr std::int64_t kSampleOutputsPerRun = 1 << 16;

// Rows [first_row, first_row + rows) of the sampled data set: N(0,1), input
// tensor 0, stream 0, element indices continuing across runs.
HostTensor sampled_rows(const harness::ProbeContext& context, const ConfigFormats& f, std::int64_t first_row,
                        std::int64_t rows, std::int64_t length) {
    std::vector<std::uint32_t> bits(static_cast<std::size_t>(rows * length));
    ref::fill_bits(f.in, ref::Normal{0, 1}, ref::TensorStream{context.seed(), 0},
                   static_cast<std::uint64_t>(first_row * length), bits);
    read_as_claimed(bits, f.in, context.claims());
    return tensor_of_bits(f.in_name, {rows, length}, bits);
}

std::string sampled_name(std::int64_t length) { return "N(0,1) rows of " + std::to_string(length); }

struct SampleCount {
    std::size_t outputs = 0;
    std::size_t qualifying = 0;
};

SampleCount reduce_sum_samples(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally,
                               spec::Json& details) {
    const auto& prc01 = accumulator_side_class(context, "C-PRC-01");
    const auto dot_bound = tolerance::DotBound::from_catalog(prc01);
    const double u_acc = ref::info(f.acc).unit_roundoff;
    const std::int64_t samples = context.integer("samples");
    SampleCount count;
    for (std::int64_t first = 0; first < samples; first += kSampleOutputsPerRun) {
        const std::int64_t rows = std::min(kSampleOutputsPerRun, samples - first);
        const HostTensor x = sampled_rows(context, f, first, rows, kSumSampleRowLength);
        const auto oracle = ref::reduce_sum_oracle(values(x), {static_cast<std::size_t>(rows), kSumSampleRowLength});
        const auto outputs = context.run(invocation(context.instance(), {x}, {rows}));
        for (std::size_t r = 0; r < oracle.value.size(); ++r) {
            ++count.outputs;
            const double y = oracle.value[r], m = oracle.magnitude[r];
            // E: C-PRC-01's element bound without its output term, c gamma(K, u_acc) M.
            const double width = dot_bound.params.c * ref::gamma(kSumSampleRowLength, u_acc) * m +
                                 reduce_sum_oracle_error(kSumSampleRowLength, y, m);
            if (!clear_of_midpoints(f.out, y, width)) continue;
            ++count.qualifying;
            StoreRecord record = store(static_cast<std::size_t>(first) + r, sampled_name(kSumSampleRowLength), y, f.out,
                                       bits_at(outputs[0], r), width);
            if (StoreRecord* kept = tally.judge(std::move(record), false))
                kept->inputs = depends_on_range("x", x, r * kSumSampleRowLength, kSumSampleRowLength);
        }
    }
    details["accumulator_side_bound"] = model_citation(prc01);
    return count;
}

SampleCount softmax_samples(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally,
                            spec::Json& details) {
    const auto& prc02 = accumulator_side_class(context, "C-PRC-02");
    const auto stability_bound = tolerance::StabilityBound::from_catalog(prc02);
    const double u_acc = ref::info(f.acc).unit_roundoff;
    const std::int64_t samples = context.integer("samples");
    const std::int64_t total_rows = (samples + kSoftmaxSampleRowLength - 1) / kSoftmaxSampleRowLength;
    const std::int64_t rows_per_run = kSampleOutputsPerRun / kSoftmaxSampleRowLength;
    SampleCount count;
    for (std::int64_t first = 0; first < total_rows; first += rows_per_run) {
        const std::int64_t rows = std::min(rows_per_run, total_rows - first);
        const HostTensor x = sampled_rows(context, f, first, rows, kSoftmaxSampleRowLength);
        const auto x_values = values(x);
        const auto oracle = ref::softmax_oracle(x_values, {static_cast<std::size_t>(rows), kSoftmaxSampleRowLength},
                                                ref::MaskedRow::nan);
        const auto outputs = context.run(invocation(context.instance(), {x}, {rows, kSoftmaxSampleRowLength}));
        for (std::size_t i = 0; i < oracle.value.size(); ++i) {
            ++count.outputs;
            const std::size_t row = i / kSoftmaxSampleRowLength;
            const double y = oracle.value[i];
            const double gap = oracle.row_max[row] - x_values[i];
            // E: C-PRC-02's element bound without its output term, c gamma(L, u_acc) M.
            const double magnitude = softmax_magnitude(kSoftmaxSampleRowLength, u_acc, f.out, y, gap);
            const double width =
                stability_bound.c * ref::gamma(kSoftmaxSampleRowLength, u_acc) * magnitude + softmax_oracle_error(y);
            if (!clear_of_midpoints(f.out, y, width)) continue;
            ++count.qualifying;
            StoreRecord record = store(static_cast<std::size_t>(first * kSoftmaxSampleRowLength) + i,
                                       sampled_name(kSoftmaxSampleRowLength), y, f.out, bits_at(outputs[0], i), width);
            if (StoreRecord* kept = tally.judge(std::move(record), false))
                kept->inputs = depends_on_range("x", x, row * kSoftmaxSampleRowLength, kSoftmaxSampleRowLength);
        }
    }
    details["accumulator_side_bound"] = model_citation(prc02);
    return count;
}

// E of a norm element: C-PRC-02's element bound without its output term,
// c gamma(L, u_acc) M, widened by the oracle's own error.
struct NormSampleBound {
    double c = 0, u_acc = 0;
    ref::Format out;
    double eps = 0;
};

std::vector<double> norm_sample_widths(const NormSampleBound& b, bool layernorm, const std::vector<double>& x,
                                       const std::vector<double>& gamma, const std::vector<double>& beta,
                                       std::size_t rows, std::vector<double>& y_star) {
    const std::int64_t L = kNormSampleRowLength;
    const ref::RowShape shape{rows, static_cast<std::size_t>(L)};
    const double g = ref::gamma(L, b.u_acc);
    std::vector<double> width;
    if (!layernorm) {
        y_star = ref::rmsnorm_oracle(x, gamma, shape, b.eps).value;
        for (const double y : y_star)
            width.push_back(b.c * g * rmsnorm_magnitude(L, b.u_acc, b.out, y) + rmsnorm_oracle_error(y));
        return width;
    }
    const auto o = ref::layernorm_oracle(x, gamma, beta, shape, b.eps);
    y_star = o.value;
    for (std::size_t i = 0; i < y_star.size(); ++i) {
        const std::size_t row = i / static_cast<std::size_t>(L), j = i % static_cast<std::size_t>(L);
        const LayernormElement e{gamma[j], beta[j], o.normalized[i], o.variance[row], o.root_mean_square[row],
                                 o.mean_abs[row], o.eps};
        width.push_back(b.c * g * layernorm_magnitude(L, b.u_acc, b.out, e, y_star[i]) + layernorm_oracle_error(L, e));
    }
    return width;
}

SampleCount norm_samples(harness::ProbeContext& context, const ConfigFormats& f, StoreTally& tally,
                         spec::Json& details) {
    const harness::Instance& instance = context.instance();
    const bool layernorm = precision::reducing_operator(instance) == precision::ReducingOperator::layernorm;
    const auto& prc02 = accumulator_side_class(context, "C-PRC-02");
    const NormSampleBound bound{tolerance::StabilityBound::from_catalog(prc02).c, ref::info(f.acc).unit_roundoff,
                                f.out, precision::default_eps(instance)};
    const std::int64_t L = kNormSampleRowLength;
    HostTensor gamma = generate(instance.config.inputs.at(1), {L}, ref::Normal{0, 1}, context.seed(), 1);
    read_as_claimed(gamma, context.claims());
    HostTensor beta;
    if (layernorm) {
        beta = generate(instance.config.inputs.at(2), {L}, ref::Normal{0, 1}, context.seed(), 2);
        read_as_claimed(beta, context.claims());
    }
    const auto gamma_values = values(gamma);
    const auto beta_values = layernorm ? values(beta) : std::vector<double>{};
    const std::int64_t samples = context.integer("samples");
    const std::int64_t total_rows = (samples + L - 1) / L;
    const std::int64_t rows_per_run = kSampleOutputsPerRun / L;
    SampleCount count;
    for (std::int64_t first = 0; first < total_rows; first += rows_per_run) {
        const std::int64_t rows = std::min(rows_per_run, total_rows - first);
        const HostTensor x = sampled_rows(context, f, first, rows, L);
        std::vector<HostTensor> inputs{x, gamma};
        if (layernorm) inputs.push_back(beta);
        const auto outputs = context.run(invocation(instance, std::move(inputs), {rows, L}));
        std::vector<double> y_star;
        const auto width = norm_sample_widths(bound, layernorm, values(x), gamma_values, beta_values,
                                              static_cast<std::size_t>(rows), y_star);
        for (std::size_t i = 0; i < y_star.size(); ++i) {
            ++count.outputs;
            if (!clear_of_midpoints(f.out, y_star[i], width[i])) continue;
            ++count.qualifying;
            StoreRecord record = store(static_cast<std::size_t>(first * L) + i, sampled_name(L), y_star[i], f.out,
                                       bits_at(outputs[0], i), width[i]);
            if (StoreRecord* kept = tally.judge(std::move(record), false)) {
                const std::size_t row = i / static_cast<std::size_t>(L), j = i % static_cast<std::size_t>(L);
                kept->inputs = depends_on_range("x", x, row * static_cast<std::size_t>(L), static_cast<std::size_t>(L));
                kept->inputs.push_back("gamma[" + std::to_string(j) + "]=" + hex_bits(gamma, j));
                if (layernorm) kept->inputs.push_back("beta[" + std::to_string(j) + "]=" + hex_bits(beta, j));
            }
        }
    }
    details["accumulator_side_bound"] = model_citation(prc02);
    return count;
}

void record_samples(spec::Json& details, const SampleCount& count) {
    details["sampled_outputs"] = count.outputs;
    details["qualifying_outputs"] = count.qualifying;
}

}  // namespace

harness::CaseResult conversion_rounding_matmul(harness::ProbeContext& context) {
    const ConfigFormats f = formats_of(context.instance());
    StoreTally tally(f.out, flushes_subnormals(context.claims()));
    spec::Json details = spec::Json::object();
    matmul_tie_sums(context, f, tally, details);
    return tally.verdict(context.instance(), std::move(details));
}

harness::CaseResult conversion_rounding_reduce_sum(harness::ProbeContext& context) {
    const ConfigFormats f = formats_of(context.instance());
    StoreTally tally(f.out, flushes_subnormals(context.claims()));
    spec::Json details = spec::Json::object();
    reduce_sum_tie_sums(context, f, tally, details);
    record_samples(details, reduce_sum_samples(context, f, tally, details));
    return tally.verdict(context.instance(), std::move(details));
}

harness::CaseResult conversion_rounding_softmax(harness::ProbeContext& context) {
    return judge_sampled_stores(context, [&](const ConfigFormats& f, StoreTally& tally, spec::Json& details) {
        record_samples(details, softmax_samples(context, f, tally, details));
    });
}

harness::CaseResult conversion_rounding_norm(harness::ProbeContext& context) {
    return judge_sampled_stores(context, [&](const ConfigFormats& f, StoreTally& tally, spec::Json& details) {
        record_samples(details, norm_samples(context, f, tally, details));
    });
}

}  // namespace kcs::suites
