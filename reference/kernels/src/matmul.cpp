// matmul (spec/v1/operators/matmul.yaml): C[b, m, n] = sum over k of
// A[b, m, k] * B[b, k, n], rank 2 or rank 3 (a batch dimension). Each
// output row is one task of for_each_row; every dot product is summed in
// the order of the call's SumPlan, which never depends on the thread count.
#include <algorithm>
#include <cmath>
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

// sums[n] += a * b_row[n] for every n, or sums[n] = fma(a, b_row[n], sums[n])
// (`fused`, the fma conformer). The fused loop is built a second time for
// processors with FMA, where std::fma is one instruction, not a call: an fma
// is correctly rounded either way, so both give the same bits.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("fma", "default")))
#endif
void add_fused_products(float a, const float* b_row, float* sums, std::int64_t n) {
    for (std::int64_t j = 0; j < n; ++j) sums[j] = std::fma(a, b_row[j], sums[j]);
}

// Cloned for AVX-512 and AVX2 as well: each lane's multiply and add are the
// same IEEE operations (fp-contract is off), so every width gives the same
// bits; wider vectors only do more outputs at once.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void add_products(const std::vector<float>& a_row, const float* b, const MatmulDims& dims, std::int64_t begin,
                  std::int64_t end, float* sums, bool fused) {
    for (std::int64_t k = begin; k < end; ++k) {
        const float a = a_row[static_cast<std::size_t>(k)];
        const float* b_row = b + k * dims.n;
        if (fused)
            add_fused_products(a, b_row, sums, dims.n);
        else
            for (std::int64_t n = 0; n < dims.n; ++n) sums[n] += a * b_row[n];
    }
}

// Every output's terms k in [begin, end) summed as sum_range() sums them:
// in index order, in tiles through a narrow accumulator.
void row_range(Dtype accumulator, const std::vector<float>& a_row, const float* b, const MatmulDims& dims,
               std::int64_t begin, std::int64_t end, float* sums, bool fused) {
    std::fill(sums, sums + dims.n, kSumIdentity);
    if (accumulator == Dtype::f32) return add_products(a_row, b, dims, begin, end, sums, fused);
    std::vector<float> tile(static_cast<std::size_t>(dims.n));
    for (std::int64_t first = begin; first < end; first += kNarrowTile) {
        std::fill(tile.begin(), tile.end(), kSumIdentity);
        add_products(a_row, b, dims, first, std::min(end, first + kNarrowTile), tile.data(), fused);
        for (std::int64_t n = 0; n < dims.n; ++n)
            sums[n] = round_through(accumulator, sums[n] + tile[static_cast<std::size_t>(n)]);
    }
}

// One row of C under any plan. Every output sums its own terms exactly as
// sum_terms() orders them (the same chunks, tiles, roundings and order of
// combination), so it has the bits sum_terms() gives; the dot products of
// the row advance side by side over k, so the adds of neighbouring outputs
// run together (the compiler vectorises them) and B is read along its rows.
void row_by_plan(const SumPlan& plan, const std::vector<float>& a_row, const float* b, const MatmulDims& dims,
                 float* c_row, bool fused) {
    if (dims.k == 0) return std::fill(c_row, c_row + dims.n, 0.0f);  // sum_terms' empty sum
    if (plan.chunks == 1) return row_range(plan.accumulator, a_row, b, dims, 0, dims.k, c_row, fused);
    std::vector<std::vector<float>> partials(static_cast<std::size_t>(plan.chunks),
                                             std::vector<float>(static_cast<std::size_t>(dims.n)));
    for (int c = 0; c < plan.chunks; ++c) {
        auto& partial = partials[static_cast<std::size_t>(c)];
        row_range(plan.accumulator, a_row, b, dims, c * dims.k / plan.chunks, (c + 1) * dims.k / plan.chunks,
                  partial.data(), fused);
        for (float& value : partial) value = round_through(plan.partial, value);
    }
    std::fill(c_row, c_row + dims.n, kSumIdentity);
    for (int j = 0; j < plan.chunks; ++j) {
        const auto c = static_cast<std::size_t>((plan.first_chunk + static_cast<std::uint64_t>(j)) %
                                                static_cast<std::uint64_t>(plan.chunks));
        for (std::int64_t n = 0; n < dims.n; ++n)
            c_row[n] = accumulate(plan.accumulator, c_row[n], partials[c][static_cast<std::size_t>(n)]);
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
    const bool fused = settings.conformer == Conformer::fma && plan.chunks == 1 && plan.accumulator == Dtype::f32;
    for_each_row(rows, settings.threads, [&](std::int64_t row) {
        const std::vector<float> a_row = load_product_row(a, row * dims.k, dims.k, settings);
        const float* batch_b = b.data() + (row / dims.m) * dims.k * dims.n;
        std::vector<float> c_row(static_cast<std::size_t>(dims.n));
        row_by_plan(plan, a_row, batch_b, dims, c_row.data(), fused);
        if (settings.violation == Violation::rare_batch_rounding && rows > 1 && dims.k > 0)
            split_every_third_column(a_row, batch_b, dims, c_row.data());
        for (std::int64_t n = 0; n < dims.n; ++n) store(c, row * dims.n + n, c_row[static_cast<std::size_t>(n)], settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kMatmul{"matmul", check, compute};

}  // namespace kcs::kernels::detail
