// layernorm (spec/v1/operators/layernorm.yaml) over the last axis, in f32:
// mean, then the biased variance of the deviations (two passes, never
// negative), rstd = 1 / sqrt(var + eps), y = ((x - mean) * rstd) * gamma + beta
// with the multiply and the add rounded separately (fp_contract off).
#include <cmath>
#include <vector>

#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"
#include "reduction_checks.hpp"
#include "reduction_operands.hpp"
#include "reduction_sum.hpp"

namespace kcs::kernels::detail {

namespace {

Result check(const OpCall& call, const Settings&) {
    if (Result r = check_counts(call, 3, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kAccumulatingConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {{"eps", false}}); failed(r)) return r;
    if (Result r = check_eps(call); failed(r)) return r;
    const Tensor& x = call.inputs[0];
    if (Result r = check_row_operand(call, x); failed(r)) return r;
    if (Result r = check_feature_vector(call, "gamma", call.inputs[1], x); failed(r)) return r;
    if (Result r = check_feature_vector(call, "beta", call.inputs[2], x); failed(r)) return r;
    return check_same_shape(call, call.outputs[0], x);
}

struct RowStatistics {
    float mean = 0;
    float variance = 0;
};

// Two passes: the mean, then the mean square of the deviations from it.
RowStatistics two_pass(const std::vector<float>& row, const SumPlan& plan) {
    const auto length = static_cast<std::int64_t>(row.size());
    const auto count = static_cast<float>(length);
    const float mean = sum_terms(plan, length, [&](std::int64_t i) { return row[static_cast<std::size_t>(i)]; }) / count;
    const float squares = sum_terms(plan, length, [&](std::int64_t i) {
        const float deviation = row[static_cast<std::size_t>(i)] - mean;
        return deviation * deviation;
    });
    return {mean, squares / count};
}

// one_pass_variance: E[x^2] - E[x]^2 in f32, the textbook shortcut. For rows
// with a large mean and a small spread both terms are ~mean^2 and their
// difference is rounding noise, often negative: rsqrt(var + eps) is NaN.
RowStatistics one_pass(const std::vector<float>& row, const SumPlan& plan) {
    const auto length = static_cast<std::int64_t>(row.size());
    const auto count = static_cast<float>(length);
    const float mean = sum_terms(plan, length, [&](std::int64_t i) { return row[static_cast<std::size_t>(i)]; }) / count;
    const float mean_square = sum_terms(plan, length, [&](std::int64_t i) {
        const float value = row[static_cast<std::size_t>(i)];
        return value * value;
    }) / count;
    return {mean, mean_square - mean * mean};
}

// normalized * gamma + beta. contracted_mul_add (whose description covers
// the affine step of the norms) and the fma conformer fuse it into one
// rounding in f32, the precision the norm computes in.
float affine(float normalized, float gamma, float beta, const Settings& settings) {
    if (fuses_mul_add(settings)) return std::fma(normalized, gamma, beta);
    const float scaled = normalized * gamma;
    return scaled + beta;
}

Result compute(const OpCall& call, const Settings& settings) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const Rows rows = rows_of(x);
    const std::vector<float> gamma = load_row(call.inputs[1], 0, rows.length, settings);
    const std::vector<float> beta = load_row(call.inputs[2], 0, rows.length, settings);
    const float eps = eps_of(call);
    const SumPlan plan = row_sum_plan(settings, rows.count);
    const bool one_pass_variance = settings.violation == Violation::one_pass_variance;
    for_each_row(rows.count, settings.threads, [&](std::int64_t r) {
        const std::vector<float> row = load_row(x, r * rows.length, rows.length, settings);
        const RowStatistics statistics = one_pass_variance ? one_pass(row, plan) : two_pass(row, plan);
        const float rstd = 1.0f / std::sqrt(statistics.variance + eps);
        std::vector<float> out(row.size());
        for (std::size_t i = 0; i < row.size(); ++i) {
            const float normalized = (row[i] - statistics.mean) * rstd;
            out[i] = affine(normalized, gamma[i], beta[i], settings);
        }
        store_row(y, r * rows.length, out, settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kLayernorm{"layernorm", check, compute};

}  // namespace kcs::kernels::detail
