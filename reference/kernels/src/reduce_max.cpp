// reduce_max (spec/v1/operators/reduce_max.yaml): y[r] = the IEEE 754-2019
// maximum of row r (NaN wins, -0 below +0). No arithmetic: the result is
// one of the row's values, stored exactly in the input's own dtype.
#include <cmath>
#include <vector>

#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"
#include "reduction_checks.hpp"
#include "reduction_operands.hpp"

namespace kcs::kernels::detail {

namespace {

Result check(const OpCall& call, const Settings&) {
    if (Result r = check_counts(call, 1, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kSameDtypeConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {}); failed(r)) return r;
    if (Result r = check_row_operand(call, call.inputs[0]); failed(r)) return r;
    return check_reduced_output(call, call.outputs[0], call.inputs[0]);
}

// nan_dropping_max: C fmax, which returns the other operand when one is
// NaN, so a NaN anywhere in a row with a number is lost (OpenCL fmax on
// CPU devices). Only an all-NaN row stays NaN.
float fmax_row(const std::vector<float>& row) {
    float maximum = row.front();
    for (const float value : row) maximum = std::fmax(maximum, value);
    return maximum;
}

Result compute(const OpCall& call, const Settings& requested) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const Rows rows = rows_of(x);
    const Settings settings = for_extents(requested, {rows.count, rows.length});
    const bool drops_nan = settings.violation == Violation::nan_dropping_max;
    for_each_row(rows.count, settings.threads, [&](std::int64_t r) {
        const std::vector<float> row = load_row(x, r * rows.length, rows.length, settings);
        store(y, r, drops_nan ? fmax_row(row) : row_maximum(row), settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kReduceMax{"reduce_max", check, compute};

}  // namespace kcs::kernels::detail
