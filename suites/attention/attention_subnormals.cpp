// C-CMP-02 Subnormal handling (spec/v1/classes/C-CMP-02.yaml) for attention:
// function probes (attention approximates exp), so y_flush is exact (a zero)
// and y_pres, the C-PRC-01 oracle's value (attention_oracle.hpp), is judged
// by kind (finite, nonzero, of its sign), with |y_pres| at least the class's
// smallest function-probe value. The default scale is used throughout.
//   Output side: C-CMP-01's construction (attention_exp_accuracy.cpp): D = T
//   = 64, K and V identity matrices, Q[s, 0] = 0 and Q[s, j] = 8 x_j, so that
//   O[s, j] = exp(x_j) / (1 + sum exp(x_i)). Each x_j is ln(k * step) rounded
//   to the input dtype, k drawn from the output dtype's subnormal grid above
//   the smallest function-probe value (stream 2^16): the elements whose
//   results round to subnormals of the output dtype, from normal inputs, are
//   output-side; flushing results makes them zero.
//   Input side, subnormal queries: D = 1, T = 2, Q[s] = a subnormal of the
//   input dtype from the upper half of its grid, K = (c, -c) with c = 1 / the
//   smallest normal of the input dtype, V = (1, -1): O = tanh(a c) with a c
//   in [1/2, 1), normal in every output dtype; read as zero, Q gives equal
//   scores and O = (1 - 1) / 2 = 0 exactly.
//   Equal scores and subnormal values (the class's attention probe), at
//   every shape [S, T, D] of the `shapes` parameter: Q = 0, so every score
//   is 0 and O[s, d] is the mean of V[:, d], a column of
//   subnormals of one sign from the upper half of the grid; read as zeros V
//   gives 0. The mean is normal where the output dtype is wider (f16 inputs,
//   f32 output: input side) and subnormal elsewhere (both sides).
// ftz-daz (reference/kernels element_access) flushes attention's loads and
// stores: every configuration has output-side probes, so it shows as ftz.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "../exactness/subnormal_batches.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace subnormal_batches;
using attention::AttentionProblem;

constexpr std::int64_t kExpRows = 4;         // output side: 4 queries of 63 probed logits
constexpr std::int64_t kExpSize = 64;        // D = T = 64: the default scale 1/8 is exact
constexpr double kQueryFactor = 8;           // 1 / the default scale
constexpr std::int64_t kSubnormalQueries = 64;

AttentionProblem empty_problem(std::int64_t queries, std::int64_t keys, std::int64_t head_dim, std::string data_set) {
    AttentionProblem p;
    p.queries = queries;
    p.keys = keys;
    p.head_dim = head_dim;
    p.q.assign(static_cast<std::size_t>(queries * head_dim), 0.0);
    p.k.assign(static_cast<std::size_t>(keys * head_dim), 0.0);
    p.v.assign(static_cast<std::size_t>(keys * head_dim), 0.0);
    p.data_set = std::move(data_set);
    return p;
}

// The problem as a batch; its elements are filled by the caller from y_pres.
Batch batch_of(const harness::Instance& instance, AttentionProblem& p) {
    attention::fit_to_inputs(instance, p);
    Batch b{p.data_set, attention::attention_invocation(instance, p).inputs, {p.queries, p.head_dim}, {}, {}};
    b.inputs_of = [&instance, p](std::size_t i) { return attention::attention_inputs(instance, p, i); };
    return b;
}

// A drawn multiple of the smallest subnormal in the upper half of the grid: 2^(p-2) <= k < 2^(p-1).
double upper_half_subnormal(const Grid& grid, GridDraws& draws) {
    return static_cast<double>(draws.next((grid.largest_k + 1) / 2, grid.largest_k)) * grid.step;
}

Batch output_side(const harness::ProbeContext& context, const ConfigFormats& f, GridDraws& draws) {
    const harness::Instance& instance = context.instance();
    const Grid out = grid_of(f.out);
    const double smallest = smallest_function_probe_value(context, f);
    AttentionProblem p = empty_problem(kExpRows, kExpSize, kExpSize,
                                       "Q rows 8 ln(k * smallest subnormal of the output), K = V = identity");
    for (std::int64_t t = 0; t < kExpSize; ++t) {
        p.k[static_cast<std::size_t>(t * kExpSize + t)] = 1;
        p.v[static_cast<std::size_t>(t * kExpSize + t)] = 1;
    }
    const auto lowest_k = static_cast<std::int64_t>(smallest / out.step);
    for (std::int64_t s = 0; s < kExpRows; ++s)
        for (std::int64_t j = 1; j < kExpSize; ++j) {
            // 8x is exact: |x| < 104 is far from the input dtypes' overflow.
            const double x =
                ref::round_to(f.in, std::log(static_cast<double>(draws.next(lowest_k, out.largest_k)) * out.step));
            p.q[static_cast<std::size_t>(s * kExpSize + j)] = kQueryFactor * x;
        }
    Batch b = batch_of(instance, p);
    const auto y = attention::attention_reference(instance, p).value;
    for (std::size_t i = 0; i < y.size(); ++i)
        // x rounded to the input dtype may leave the window: only the results that are subnormal count.
        if (inside_subnormal_range(f.out, y[i], smallest))
            b.elements.push_back({i, SubnormalSide::output, y[i], 0.0, false});
    return b;
}

Batch subnormal_queries(const harness::ProbeContext& context, const ConfigFormats& f, GridDraws& draws) {
    const harness::Instance& instance = context.instance();
    const Grid in = grid_of(f.in);
    AttentionProblem p = empty_problem(kSubnormalQueries, 2, 1, "subnormal queries against keys +-1/tiny, V = (1, -1)");
    for (double& q : p.q) q = upper_half_subnormal(in, draws);
    p.k = {1 / in.tiny, -1 / in.tiny};
    p.v = {1, -1};
    Batch b = batch_of(instance, p);
    const double smallest = smallest_function_probe_value(context, f);
    const auto y = attention::attention_reference(instance, p).value;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!(y[i] >= smallest) || is_subnormal(f.out, ref::round_to(f.out, y[i])) || !is_subnormal(f.in, p.q[i]))
            throw std::logic_error("C-CMP-02 attention probe: a subnormal query left its window");
        b.elements.push_back({i, SubnormalSide::input, y[i], 0.0, false});
    }
    return b;
}

// [S, T, D] = `shape`: S queries, T keys, the mean of T values per column.
Batch subnormal_values(const harness::ProbeContext& context, const ConfigFormats& f, GridDraws& draws,
                       const std::vector<std::int64_t>& shape) {
    const harness::Instance& instance = context.instance();
    const Grid in = grid_of(f.in);
    const std::int64_t T = shape[1], D = shape[2];
    AttentionProblem p =
        empty_problem(shape[0], T, D, "equal scores (Q = 0), columns of subnormal V " + shape_text(shape));
    for (double& k : p.k) k = 1;
    for (std::int64_t t = 0; t < T; ++t)
        for (std::int64_t d = 0; d < D; ++d)
            p.v[static_cast<std::size_t>(t * D + d)] = (d % 2 ? -1.0 : 1.0) * upper_half_subnormal(in, draws);
    Batch b = batch_of(instance, p);
    const double smallest = smallest_function_probe_value(context, f);
    const auto y = attention::attention_reference(instance, p).value;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!(std::fabs(y[i]) >= smallest))
            throw std::logic_error("C-CMP-02 attention probe: a mean of subnormal values left its window");
        const bool subnormal_result = is_subnormal(f.out, ref::round_to(f.out, y[i]));
        b.elements.push_back({i, side_of(true, subnormal_result), y[i], 0.0, false});
    }
    return b;
}

}  // namespace

harness::CaseResult attention_subnormal_handling(harness::ProbeContext& context) {
    const ConfigFormats f = formats_of(context.instance());
    GridDraws draws(context.seed());
    std::vector<Batch> batches;
    batches.push_back(output_side(context, f, draws));
    batches.push_back(subnormal_queries(context, f, draws));
    for (const auto& shape : probe_shapes(context.instance(), 3, "[S, T, D]"))
        batches.push_back(subnormal_values(context, f, draws, shape));
    return judge_batches(context, std::move(batches));
}

}  // namespace kcs::suites
