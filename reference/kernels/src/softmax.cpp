// softmax (spec/v1/operators/softmax.yaml) over the last axis:
// y[r, i] = exp(x[r, i] - m) / s, m the row maximum, s the sum of the
// exponentials, all in f32. IEEE arithmetic gives the special rows the
// operator file asks for without a branch: a -inf entry gets exp(-inf) = +0
// exactly; a NaN makes m NaN and so the whole row; a +inf entry makes
// x - m = inf - inf = NaN; a row of -inf only has m = -inf and
// -inf - (-inf) = NaN everywhere, the masked_row value reference-cpu claims.
#include <cmath>
#include <limits>
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
    if (Result r = check_counts(call, 1, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kAccumulatingConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {}); failed(r)) return r;
    if (Result r = check_row_operand(call, call.inputs[0]); failed(r)) return r;
    return check_same_shape(call, call.outputs[0], call.inputs[0]);
}

// The exponentials of one row, in place. Conforming: shifted by the row
// maximum so that every exponent is <= 0. naive_softmax exponentiates the
// logits as they are: exp overflows to inf past 88.72 and the row becomes
// inf / inf = NaN, while N(0,1) logits never get there.
void exponentiate(std::vector<float>& row, const Settings& settings) {
    const bool naive = settings.violation == Violation::naive_softmax;
    const float shift = naive ? 0.0f : row_maximum(row);
    for (float& value : row) value = naive ? std::exp(value) : std::exp(value - shift);
}

Result compute(const OpCall& call, const Settings& requested) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const Rows rows = rows_of(x);
    const Settings settings = for_extents(requested, {rows.count, rows.length});
    const SumPlan plan = row_sum_plan(settings, rows.count);
    for_each_row(rows.count, settings.threads, [&](std::int64_t r) {
        std::vector<float> row = load_row(x, r * rows.length, rows.length, settings);
        if (settings.conformer == Conformer::masked_zero && !row.empty() &&
            row_maximum(row) == -std::numeric_limits<float>::infinity()) {
            // Every entry masked: the masked_zero conformer writes 0, the masked_row value it claims.
            for (std::int64_t i = 0; i < rows.length; ++i) store(y, r * rows.length + i, 0.0f, settings);
            return;
        }
        exponentiate(row, settings);
        const float denominator = sum_terms(plan, rows.length, [&](std::int64_t i) { return row[static_cast<std::size_t>(i)]; });
        for (float& value : row) value /= denominator;
        store_row(y, r * rows.length, row, settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kSoftmax{"softmax", check, compute};

}  // namespace kcs::kernels::detail
