// C-ORD-01 Reduction order: bounded path dependence
// (spec/v1/classes/C-ORD-01.yaml) for attention. The permuted axis is the
// keys: K's and V's rows move together, which leaves O unchanged in exact
// arithmetic and reorders the denominator and the P.V sum.
//
// For each shape [S, T, D] of the sweep (S queries, T keys, head dimension
// D), base problems: (1) Q and K from uniform(-1,1) (scores within
// +-sqrt(D) with the default scale 1/sqrt(D), so every gap is at most
// 2 sqrt(D) <= 32 for D <= 256, the precondition's bound), V from
// normal(0,1); (3) the same with one large value, 1e3, in the first key's V
// row. Each is run under the identity, the reversal, the seeded
// permutations 0 .. permutations-1 and, for (3), placements of the large key
// at the end and in the middle; order_bound judges every element with
// attention's magnitude term M = 2 W (1 + A (D + 1) / (T - 1)).
#include <cmath>
#include <string>
#include <vector>

#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "kcs/reference/permutation.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/order_sweep.hpp"
#include "../precision/reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace attention;
using namespace precision;

constexpr double kLargeValue = 1e3;
// The precondition's score gap, 2 sqrt(D) for uniform(-1,1) Q and K, stays within 32.
constexpr std::int64_t kLargestHeadDim = 256;

struct BaseProblem {
    AttentionProblem problem;
    std::vector<Order> placements;  // the orders that move the large key (none for (1))
};

// [S, T, D] = `shape`.
std::vector<BaseProblem> base_problems(const harness::Instance& instance, const harness::Claims& claims,
                                       const std::vector<std::int64_t>& shape, std::uint64_t seed) {
    const std::int64_t T = shape[1], D = shape[2];
    const ref::Uniform uniform{-1.0, 1.0};
    AttentionProblem normal = drawn_problem(instance, claims, shape[0], T, D, uniform, uniform, ref::Normal{0.0, 1.0},
                                            seed, "(1) Q, K from uniform(-1,1), V from normal(0,1)");
    AttentionProblem large = normal;
    large.data_set = "(3) one key's V row 1e3 among normal(0,1)";
    for (std::int64_t d = 0; d < D; ++d) large.v[static_cast<std::size_t>(d)] = kLargeValue;
    fit_to_inputs(instance, large);
    const auto n = static_cast<std::uint64_t>(T);
    return {{std::move(normal), {}},
            {std::move(large),
             {placement(T, {0}, {n - 1}, "large key at the end"), placement(T, {0}, {n / 2}, "large key in the middle")}}};
}

// Keys and values in the order `order` (position p holds base key order[p]).
AttentionProblem permute_keys(const AttentionProblem& p, const std::vector<std::uint64_t>& order) {
    AttentionProblem q = p;
    const auto d = static_cast<std::size_t>(p.head_dim);
    for (std::size_t pos = 0; pos < order.size(); ++pos)
        for (std::size_t j = 0; j < d; ++j) {
            q.k[pos * d + j] = p.k[order[pos] * d + j];
            q.v[pos * d + j] = p.v[order[pos] * d + j];
        }
    return q;
}

// M = 2 W (1 + A (D + 1) / (T - 1)) per element (C-ORD-01's postcondition).
std::vector<double> order_magnitude(const ref::AttentionResult& oracle, const AttentionProblem& p) {
    std::vector<double> m(oracle.value.size());
    const double score_share = static_cast<double>(p.head_dim + 1) / static_cast<double>(p.keys - 1);
    for (std::size_t i = 0; i < m.size(); ++i) {
        const double a = oracle.score_magnitude[i / static_cast<std::size_t>(p.head_dim)];
        m[i] = 2 * oracle.weighted_abs_value[i] * (1 + a * score_share);
    }
    return m;
}

ProblemFigures measure(harness::ProbeContext& context, const tolerance::OrderBound& model, const BaseProblem& base,
                       std::int64_t permutations) {
    const harness::Instance& instance = context.instance();
    const AttentionProblem& p = base.problem;
    std::vector<Order> orders{identity(p.keys), reversal(p.keys)};
    for (std::int64_t j = 0; j < permutations; ++j)
        orders.push_back({"permutation " + std::to_string(j),
                          ref::permutation(context.seed(), static_cast<std::uint64_t>(p.keys),
                                           static_cast<std::uint32_t>(j))});
    orders.insert(orders.end(), base.placements.begin(), base.placements.end());

    std::vector<harness::HostTensor> tensors;
    std::vector<std::vector<double>> outputs;  // O does not move with the keys: nothing to restore
    for (const Order& o : orders) {
        tensors.push_back(run_attention(context, permute_keys(p, o.order)));
        outputs.push_back(values(tensors.back()));
    }
    const ref::AttentionResult oracle = attention_reference(instance, p);
    ProblemFigures f;
    f.data_set = p.data_set;
    for (const Order& o : orders) f.order_names.push_back(o.name);
    f.result = model.check(outputs, oracle.value, order_magnitude(oracle, p), p.keys,
                           unit_roundoff(accumulate_dtype(instance)), unit_roundoff(instance.config.output),
                           tolerance::OutputUnderflow::of(float_format(instance.config.output), context.claims()));
    const auto& r = f.result;
    const auto element = [&](std::size_t i, std::size_t order, double error, double bound) {
        return harness::WorstElement{static_cast<std::int64_t>(i), attention_inputs(instance, p, i), oracle.value[i],
                                     outputs[order][i], hex_bits(tensors[order], i), error, bound};
    };
    f.worst_diameter =
        element(r.worst_diameter_element, r.highest_order, r.worst_diameter, r.worst_diameter_bound);
    f.worst_error = element(r.worst_error_element, r.worst_error_order, r.worst_error, r.worst_error_bound);
    return f;
}

}  // namespace

harness::CaseResult attention_bounded_path_dependence(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const auto model = tolerance::OrderBound::from_catalog(*instance.contract);
    const std::int64_t permutations = context.integer("permutations");
    std::vector<KFigures> sweep;
    for (const auto& shape : exactness::probe_shapes(instance, 3, "[S, T, D]")) {
        if (shape[1] < shape[2] + 2 || shape[2] > kLargestHeadDim)
            throw std::invalid_argument(instance.id + ": C-ORD-01 needs T >= D + 2 and D <= 256 in every shape");
        KFigures k{shape[1], exactness::shape_text(shape), {}};
        for (const BaseProblem& base : base_problems(instance, context.claims(), shape, context.seed()))
            k.problems.push_back(measure(context, model, base, permutations));
        sweep.push_back(std::move(k));
    }
    return order_sweep_verdict(instance, model, sweep);
}

}  // namespace kcs::suites
