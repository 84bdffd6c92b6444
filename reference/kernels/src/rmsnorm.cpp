// rmsnorm (spec/v1/operators/rmsnorm.yaml) over the last axis, in f32:
// ms = mean of x^2, rrms = 1 / sqrt(ms + eps), y = (x * rrms) * gamma.
// An infinite entry gives ms = inf and rrms = 0, so its own output is
// inf * 0 = NaN and the others 0, as the definition's IEEE evaluation does.
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
    if (Result r = check_counts(call, 2, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kAccumulatingConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {{"eps", false}}); failed(r)) return r;
    if (Result r = check_eps(call); failed(r)) return r;
    const Tensor& x = call.inputs[0];
    if (Result r = check_row_operand(call, x); failed(r)) return r;
    if (Result r = check_feature_vector(call, "gamma", call.inputs[1], x); failed(r)) return r;
    return check_same_shape(call, call.outputs[0], x);
}

Result compute(const OpCall& call, const Settings& settings) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const Rows rows = rows_of(x);
    const std::vector<float> gamma = load_row(call.inputs[1], 0, rows.length, settings);
    const float eps = eps_of(call);
    const SumPlan plan = row_sum_plan(settings, rows.count);
    for_each_row(rows.count, settings.threads, [&](std::int64_t r) {
        const std::vector<float> row = load_row(x, r * rows.length, rows.length, settings);
        const float squares = sum_terms(plan, rows.length, [&](std::int64_t i) {
            const float value = row[static_cast<std::size_t>(i)];
            return value * value;
        });
        const float mean_square = squares / static_cast<float>(rows.length);
        const float rrms = 1.0f / std::sqrt(mean_square + eps);
        std::vector<float> out(row.size());
        for (std::size_t i = 0; i < row.size(); ++i) {
            const float normalized = row[i] * rrms;
            out[i] = normalized * gamma[i];
        }
        store_row(y, r * rows.length, out, settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kRmsnorm{"rmsnorm", check, compute};

}  // namespace kcs::kernels::detail
