// reduce_sum (spec/v1/operators/reduce_sum.yaml): y[r] = sum over k of
// x[r, k], the leading dimensions of x flattened into rows. One row per
// for_each_row task, summed in the order of the call's SumPlan.
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
    return check_reduced_output(call, call.outputs[0], call.inputs[0]);
}

Result compute(const OpCall& call, const Settings& requested) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const Rows rows = rows_of(x);
    const Settings settings = for_extents(requested, {rows.count, rows.length});
    const SumPlan plan = split_plan(settings, rows.count, rows.length, y.dtype);
    for_each_row(rows.count, settings.threads, [&](std::int64_t r) {
        const std::vector<float> row = load_row(x, r * rows.length, rows.length, settings);
        const float sum = sum_terms(plan, rows.length, [&](std::int64_t k) { return row[static_cast<std::size_t>(k)]; });
        store(y, r, sum, settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kReduceSum{"reduce_sum", check, compute};

}  // namespace kcs::kernels::detail
