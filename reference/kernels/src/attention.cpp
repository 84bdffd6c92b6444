// attention (spec/v1/operators/attention.yaml), single head, in f32:
// scores[s, t] = scale * (Q[s] . K[t]) for the keys query s sees (all, or
// t <= s under the top-left causal mask), P[s] = softmax of the scores with
// the row maximum subtracted, O[s, d] = (sum over t of p[t] * V[t, d]) / sum
// over t of p[t]. One query per for_each_row task; every sum is a SumPlan
// single pass in key (or head) order.
#include <algorithm>
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

Result check_shapes(const OpCall& call) {
    const Tensor& q = call.inputs[0];
    const Tensor& k = call.inputs[1];
    const Tensor& v = call.inputs[2];
    const Tensor& o = call.outputs[0];
    for (const Tensor* tensor : {&q, &k, &v, &o})
        if (tensor->shape.size() != 2)
            return unsupported("attention: Q, K, V and O must have rank 2 ([S, D], [T, D], [T, D], [S, D]), got " +
                               shape_text(*tensor));
    const std::string shapes =
        " (Q " + shape_text(q) + ", K " + shape_text(k) + ", V " + shape_text(v) + ", O " + shape_text(o) + ")";
    if (k.shape[0] < 1 || q.shape[1] < 1)
        return invalid("attention: at least one key and a head dimension of at least 1 are required" + shapes);
    if (k.shape != v.shape || k.shape[1] != q.shape[1] || o.shape != q.shape)
        return invalid("attention: shapes must be Q [S, D], K [T, D], V [T, D], O [S, D]" + shapes);
    return ok();
}

Result check(const OpCall& call, const Settings&) {
    if (Result r = check_counts(call, 3, 1); failed(r)) return r;
    if (Result r = check_extents(call); failed(r)) return r;
    if (Result r = check_dtypes(call, kAccumulatingConfigs); failed(r)) return r;
    if (Result r = check_attributes(call, {{"causal", true}, {"scale", false}}); failed(r)) return r;
    return check_shapes(call);
}

// The scale attribute rounded to f32, or 1/sqrt(D) computed in f32.
float scale_of(const OpCall& call, std::int64_t head_dim) {
    if (call.attributes.contains("scale")) return static_cast<float>(call.number("scale", 1.0));
    return 1.0f / std::sqrt(static_cast<float>(head_dim));
}

// The attention weights of one query, unnormalised: exp(score - max).
// naive_softmax skips the shift, so a score past 88.72 gives inf.
void exponentiate(std::vector<float>& scores, float maximum, const Settings& settings) {
    const bool naive = settings.violation == Violation::naive_softmax;
    for (float& score : scores) score = naive ? std::exp(score) : std::exp(score - maximum);
}

struct AttentionProblem {
    std::int64_t keys = 0;      // T
    std::int64_t head_dim = 0;  // D
    bool causal = false;
    float scale = 1.0f;
    std::vector<float> k;  // [T, D] as the products see them
    std::vector<float> v;  // [T, D]
    SumPlan plan;
};

// O[s, :] for one query row q.
void attend(const AttentionProblem& problem, std::int64_t s, const std::vector<float>& q, const Tensor& o,
            const Settings& settings) {
    const std::int64_t dims = problem.head_dim;
    const std::int64_t visible = problem.causal ? std::min(problem.keys, s + 1) : problem.keys;
    std::vector<float> scores(static_cast<std::size_t>(visible));
    for (std::int64_t t = 0; t < visible; ++t) {
        const float* key = problem.k.data() + t * dims;
        const float dot = sum_terms(problem.plan, dims, [&](std::int64_t d) { return q[static_cast<std::size_t>(d)] * key[d]; });
        scores[static_cast<std::size_t>(t)] = problem.scale * dot;
    }
    const float maximum = row_maximum(scores);
    if (maximum == -std::numeric_limits<float>::infinity()) {
        // Every score is -inf: no distribution exists; the masked_row claim
        // says what to write (nan; zero for the masked_zero conformer).
        const float masked = settings.conformer == Conformer::masked_zero ? 0.0f : std::numeric_limits<float>::quiet_NaN();
        for (std::int64_t d = 0; d < dims; ++d) store(o, s * dims + d, masked, settings);
        return;
    }
    // Keys whose score is -inf are masked: weight exactly 0, and they stay out
    // of the P.V sum, so a NaN or inf in their V row cannot leak.
    std::vector<bool> masked(scores.size());
    for (std::size_t t = 0; t < scores.size(); ++t) masked[t] = scores[t] == -std::numeric_limits<float>::infinity();
    exponentiate(scores, maximum, settings);
    const float denominator = sum_terms(problem.plan, visible, [&](std::int64_t t) { return scores[static_cast<std::size_t>(t)]; });
    std::vector<float> weighted(static_cast<std::size_t>(dims), kSumIdentity);
    const bool fused = settings.conformer == Conformer::fma;
    for (std::int64_t t = 0; t < visible; ++t) {
        if (masked[static_cast<std::size_t>(t)]) continue;
        const float weight = scores[static_cast<std::size_t>(t)];
        const float* value = problem.v.data() + t * dims;
        for (std::int64_t d = 0; d < dims; ++d) {
            float& sum = weighted[static_cast<std::size_t>(d)];
            sum = fused && problem.plan.accumulator == Dtype::f32 ? std::fma(weight, value[d], sum)
                                                                  : accumulate(problem.plan.accumulator, sum, weight * value[d]);
        }
    }
    for (float& sum : weighted) sum /= denominator;
    store_row(o, s * dims, weighted, settings);
}

Result compute(const OpCall& call, const Settings& settings) {
    const Tensor& q = call.inputs[0];
    const Tensor& k = call.inputs[1];
    const Tensor& v = call.inputs[2];
    AttentionProblem problem;
    problem.keys = k.shape[0];
    problem.head_dim = k.shape[1];
    problem.causal = call.flag("causal", false);
    problem.scale = scale_of(call, problem.head_dim);
    problem.k = load_product_row(k, 0, k.elements(), settings);
    problem.v = load_product_row(v, 0, v.elements(), settings);
    problem.plan = composite_plan(settings);
    for_each_row(q.shape[0], settings.threads, [&](std::int64_t s) {
        const std::vector<float> query = load_product_row(q, s * problem.head_dim, problem.head_dim, settings);
        attend(problem, s, query, call.outputs[0], settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kAttention{"attention", check, compute};

}  // namespace kcs::kernels::detail
