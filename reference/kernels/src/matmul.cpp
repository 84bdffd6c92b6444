// matmul (spec/v1/operators/matmul.yaml): C[b, m, n] = sum over k of
// A[b, m, k] * B[b, k, n], rank 2 or rank 3 (a batch dimension). Each
// output row is one task of for_each_row; every dot product is summed in
// the order of the call's SumPlan, which never depends on the thread count.
#include <algorithm>
#include <string>
#include <vector>

#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"
#include "reduction_checks.hpp"
#include "reduction_operands.hpp"
#include "reduction_sum.hpp"

namespace kcs::kernels::detail {

namespace {

struct MatmulDims {
    std::int64_t batch = 1;
    std::int64_t m = 0;
    std::int64_t k = 0;
    std::int64_t n = 0;
};

// A is [batch?, M, K]; B gives N from its last axis. Valid after check().
MatmulDims dims_of(const OpCall& call) {
    const auto& a = call.inputs[0].shape;
    const auto& b = call.inputs[1].shape;
    const std::size_t rank = a.size();
    return {rank == 3 ? a[0] : 1, a[rank - 2], a[rank - 1], b[rank - 1]};
}

Result check_shapes(const OpCall& call) {
    const Tensor& a = call.inputs[0];
    const Tensor& b = call.inputs[1];
    const Tensor& c = call.outputs[0];
    const std::size_t rank = a.shape.size();
    if (rank != 2 && rank != 3)
        return unsupported("matmul: A " + shape_text(a) + " has rank " + std::to_string(rank) +
                           "; the kernel computes rank 2 [M, K] or rank 3 [B, M, K]");
    const std::string shapes = " (A " + shape_text(a) + ", B " + shape_text(b) + ", C " + shape_text(c) + ")";
    if (b.shape.size() != rank || c.shape.size() != rank)
        return invalid("matmul: A, B and C must have the same rank" + shapes);
    if (rank == 3 && (b.shape[0] != a.shape[0] || c.shape[0] != a.shape[0]))
        return invalid("matmul: A, B and C must have the same batch dimension" + shapes);
    if (b.shape[rank - 2] != a.shape[rank - 1])
        return invalid("matmul: the K of A and B differ" + shapes);
    if (c.shape[rank - 2] != a.shape[rank - 2] || c.shape[rank - 1] != b.shape[rank - 1])
        return invalid("matmul: C must be [M, N] of A [M, K] and B [K, N]" + shapes);
    return ok();
}

Result check(const OpCall& call, const Settings&) {
    if (Result r = check_counts(call, 2, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kAccumulatingConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {}); failed(r)) return r;
    return check_shapes(call);
}

// B as f32, [batch, K, N] as stored; the C-PRC-03 coercions are applied
// here, once per element.
std::vector<float> load_b(const Tensor& b, const MatmulDims& dims, const Settings& settings) {
    std::vector<float> rows(static_cast<std::size_t>(dims.batch * dims.k * dims.n));
    for_each_row(dims.batch * dims.k, settings.threads, [&](std::int64_t row) {
        const std::vector<float> values = load_product_row(b, row * dims.n, dims.n, settings);
        std::copy(values.begin(), values.end(), rows.begin() + row * dims.n);
    });
    return rows;
}

// One row of C under any plan: each dot product summed on its own.
void row_by_plan(const SumPlan& plan, const std::vector<float>& a_row, const float* b, const MatmulDims& dims,
                 float* c_row) {
    for (std::int64_t n = 0; n < dims.n; ++n)
        c_row[n] = sum_terms(plan, dims.k, [&](std::int64_t k) { return a_row[static_cast<std::size_t>(k)] * b[k * dims.n + n]; });
}

// One row of C under the conforming plan, one f32 running sum in index
// order: the sums of neighbouring outputs advance together over k, each
// still adding its own terms in index order from the same identity, so
// every output has the bits row_by_plan() gives while the adds of a block
// run side by side (the compiler vectorises the inner loop). `fused`: each
// step is one fused multiply-add (the fma conformer).
void row_in_order(const std::vector<float>& a_row, const float* b, const MatmulDims& dims, float* c_row, bool fused) {
    std::fill(c_row, c_row + dims.n, kSumIdentity);
    for (std::int64_t k = 0; k < dims.k; ++k) {
        const float a = a_row[static_cast<std::size_t>(k)];
        const float* b_row = b + k * dims.n;
        if (fused)
            for (std::int64_t n = 0; n < dims.n; ++n) c_row[n] = std::fma(a, b_row[n], c_row[n]);
        else
            for (std::int64_t n = 0; n < dims.n; ++n) c_row[n] += a * b_row[n];
    }
}

// rare_batch_rounding: a call of more than one row sums every third column
// as two halves of K. Both are sums the accumulator contract allows; they
// differ by f32 ulps, which an f16 or bf16 store hides in all but about 1
// element of 6000 of those columns (1 in 20000 of the output).
void split_every_third_column(const std::vector<float>& a_row, const float* b, const MatmulDims& dims, float* c_row) {
    const SumPlan halves{Dtype::f32, 2};
    for (std::int64_t n = 0; n < dims.n; n += 3)
        c_row[n] = sum_terms(halves, dims.k, [&](std::int64_t k) { return a_row[static_cast<std::size_t>(k)] * b[k * dims.n + n]; });
}

Result compute(const OpCall& call, const Settings& requested) {
    const MatmulDims dims = dims_of(call);
    const Settings settings = for_extents(requested, {dims.m, dims.k, dims.n});
    const Tensor& a = call.inputs[0];
    const Tensor& c = call.outputs[0];
    const std::vector<float> b = load_b(call.inputs[1], dims, settings);
    const std::int64_t rows = dims.batch * dims.m;
    const SumPlan plan = split_plan(settings, rows, dims.k, c.dtype);
    const bool in_order = plan.chunks == 1 && plan.accumulator == Dtype::f32;
    for_each_row(rows, settings.threads, [&](std::int64_t row) {
        const std::vector<float> a_row = load_product_row(a, row * dims.k, dims.k, settings);
        const float* batch_b = b.data() + (row / dims.m) * dims.k * dims.n;
        std::vector<float> c_row(static_cast<std::size_t>(dims.n));
        if (in_order && dims.k > 0)  // sum_terms makes an empty sum +0, not the identity -0
            row_in_order(a_row, batch_b, dims, c_row.data(), settings.conformer == Conformer::fma);
        else
            row_by_plan(plan, a_row, batch_b, dims, c_row.data());
        if (settings.violation == Violation::rare_batch_rounding && rows > 1 && dims.k > 0)
            split_every_third_column(a_row, batch_b, dims, c_row.data());
        for (std::int64_t n = 0; n < dims.n; ++n) store(c, row * dims.n + n, c_row[static_cast<std::size_t>(n)], settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kMatmul{"matmul", check, compute};

}  // namespace kcs::kernels::detail
