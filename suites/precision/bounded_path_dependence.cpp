// C-ORD-01 Reduction order: bounded path dependence
// (spec/v1/classes/C-ORD-01.yaml), one protocol for matmul, reduce_sum,
// softmax and the norms (run with gamma ones and beta zeros, as the class's
// precondition says).
//
// For each K of the sweep, base problems: (1) normal(0,1); (2) for
// reduce_sum and matmul one pair +L and -L among normal(0,1) entries; (3)
// one large entry among normal(0,1) entries. Each is run under the identity,
// the reversal, the seeded permutations 0 .. permutations-1 (SPEC section 4)
// and placements of its large entries, each permutation applied to every
// operand's reduced axis at once; outputs are brought back to the base
// order and judged by order_bound against the base problem's y* and M.
//
// Problem sizes: the catalog's `shapes`, [M, K, N] for matmul and [rows, K]
// for the others. The adversarial structure is the same in every row; the
// rows and columns are there to reach the kernels a library picks by shape
// (a split of K chosen only for few outputs, a vector path from some row
// count up), and every order is one more run, so the sweep pairs its large
// row counts with short K.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "../tolerance/model_citation.hpp"
#include "../tolerance/order_bound.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/reference/permutation.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../exactness/exactness_common.hpp"
#include "precision_probes.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "order_sweep.hpp"
#include "reduction_problems.hpp"

namespace kcs::suites {

namespace {

using namespace precision;
using tolerance::OrderBound;
using tolerance::OrderBoundResult;

// One problem size of the sweep.
struct ProblemShape {
    std::int64_t rows = 0;  // matmul M
    std::int64_t k = 0;     // the permuted axis
    std::int64_t cols = 1;  // matmul N
    std::vector<std::int64_t> extents;
};

// The instance's shapes, each K at least 4 (the placements need four distinct positions).
std::vector<ProblemShape> problem_shapes(const harness::Instance& instance) {
    const bool matmul = reducing_operator(instance) == ReducingOperator::matmul;
    std::vector<ProblemShape> shapes;
    for (auto& s : exactness::probe_shapes(instance, matmul ? 3 : 2, matmul ? "[M, K, N]" : "[rows, K]")) {
        if (s[1] < 4) throw std::invalid_argument(instance.id + ": C-ORD-01 needs K >= 4 in every shape");
        shapes.push_back({s[0], s[1], matmul ? s[2] : 1, std::move(s)});
    }
    return shapes;
}

// A base problem and the positions of its large entries.
struct BaseProblem {
    ReductionProblem problem;
    std::vector<std::uint64_t> large;                    // positions in the base order
    std::vector<std::vector<std::uint64_t>> placements;  // target positions, one list per placement
    std::vector<std::string> placement_names;
};

// Every order the protocol evaluates a base problem under.
std::vector<Order> orders_for(const BaseProblem& base, std::uint64_t seed, std::int64_t permutations) {
    const std::int64_t k = base.problem.k;
    std::vector<Order> orders{identity(k), reversal(k)};
    for (std::int64_t j = 0; j < permutations; ++j)
        orders.push_back({"permutation " + std::to_string(j),
                          ref::permutation(seed, static_cast<std::uint64_t>(k), static_cast<std::uint32_t>(j))});
    for (std::size_t i = 0; i < base.placements.size(); ++i)
        orders.push_back(placement(k, base.large, base.placements[i], base.placement_names[i]));
    return orders;
}

// L of data set (2): 2^14 where f16 is an input or output dtype, so that the
// pair is finite in f16 and a partial sum near L stored in f16 loses up to 8;
// 2^100 otherwise.
double pair_magnitude(const harness::Instance& instance) {
    bool f16 = instance.config.output == "f16";
    for (const auto& d : instance.config.inputs) f16 = f16 || d == "f16";
    return f16 ? 0x1p14 : 0x1p100;
}

// The large entry of data set (3): 16 for softmax logits, 1e3 otherwise.
double large_entry(ReducingOperator op) { return op == ReducingOperator::softmax ? 16.0 : 1e3; }

ReductionProblem normal_problem(const harness::Instance& instance, const harness::Claims& claims,
                                const ProblemShape& shape, std::uint64_t seed) {
    const ReducingOperator op = reducing_operator(instance);
    ReductionProblem p =
        draw_problem(instance, claims, shape.rows, shape.k, shape.cols, ref::Normal{0.0, 1.0}, seed, "normal(0,1)");
    if (is_norm(op)) use_unit_affine(p);
    return p;
}

// The normal(0,1) problem under another name, to be given its large entries.
ReductionProblem renamed(ReductionProblem problem, std::string data_set) {
    problem.data_set = std::move(data_set);
    return problem;
}

// Entry `position` of the reduced axis set to `value` in every row of A (or x).
void set_row_entries(ReductionProblem& p, std::uint64_t position, double value) {
    const auto k = static_cast<std::size_t>(p.k);
    for (std::size_t row = 0; row < static_cast<std::size_t>(p.rows); ++row) p.a[row * k + position] = value;
}

// Row `position` of matmul's B set to `value` in every column.
void set_b_row(ReductionProblem& p, std::uint64_t position, double value) {
    for (std::size_t col = 0; col < static_cast<std::size_t>(p.cols); ++col)
        p.b[position * static_cast<std::size_t>(p.cols) + col] = value;
}


// (1), (2) and (3) for one shape. The large entries of (2) start at the first and
// last positions, that of (3) at the first; the placements put them at the
// start, at the end, together and K/2 apart (a single entry: at the end and
// in the middle), so that any split into two or more partials separates a
// pair, or isolates the single entry, in some problem.
std::vector<BaseProblem> base_problems(const harness::Instance& instance, const harness::Claims& claims,
                                       const ProblemShape& shape, std::uint64_t seed) {
    const ReducingOperator op = reducing_operator(instance);
    const auto n = static_cast<std::uint64_t>(shape.k);
    const ReductionProblem normal = normal_problem(instance, claims, shape, seed);
    std::vector<BaseProblem> bases;
    bases.push_back({normal, {}, {}, {}});

    if (op == ReducingOperator::reduce_sum || op == ReducingOperator::matmul) {
        const double L = pair_magnitude(instance);
        BaseProblem pair{renamed(normal, "pair +-L among normal(0,1), L = 2^" + std::to_string(std::ilogb(L))),
                         {0, n - 1},
                         {{0, 1}, {n - 2, n - 1}, {n / 2 - 1, n / 2}, {n / 4, n / 4 + n / 2}},
                         {"pair at the start", "pair at the end", "pair together in the middle", "pair K/2 apart"}};
        if (op ==
            ReducingOperator::matmul) {  // products a_k b_k = +-L from factors sqrt(L), exact in every input dtype
            set_row_entries(pair.problem, 0, std::sqrt(L));
            set_row_entries(pair.problem, n - 1, -std::sqrt(L));
            set_b_row(pair.problem, 0, std::sqrt(L));
            set_b_row(pair.problem, n - 1, std::sqrt(L));
        } else {
            set_row_entries(pair.problem, 0, L);
            set_row_entries(pair.problem, n - 1, -L);
        }
        bases.push_back(std::move(pair));
    }

    // matmul: the large entry is in A only, B keeps its normal(0,1) values
    const double large = large_entry(op);
    BaseProblem single{renamed(normal, "one entry " + ref::number_text(large) + " among normal(0,1)"),
                       {0},
                       {{n - 1}, {n / 2}},
                       {"large entry at the end", "large entry in the middle"}};
    set_row_entries(single.problem, 0, large);
    bases.push_back(std::move(single));
    return bases;
}

harness::WorstElement record(const harness::Instance& instance, const ReductionProblem& base, std::size_t i,
                             double expected, double got, const std::string& got_bits, double error, double bound) {
    harness::WorstElement w;
    w.index = static_cast<std::int64_t>(i);
    w.inputs = element_inputs(instance, base, i);
    w.expected = expected;
    w.got = got;
    w.got_bits = got_bits;
    w.error = error;
    w.bound = bound;
    return w;
}

ProblemFigures measure_problem(harness::ProbeContext& context, const OrderBound& model, const BaseProblem& base,
                               std::int64_t permutations) {
    const harness::Instance& instance = context.instance();
    const double u_acc = unit_roundoff(accumulate_dtype(instance));
    const double u_out = unit_roundoff(instance.config.output);
    const auto underflow = tolerance::OutputUnderflow::of(float_format(instance.config.output), context.claims());
    const std::vector<Order> orders = orders_for(base, context.seed(), permutations);
    std::vector<harness::HostTensor> tensors;
    std::vector<std::vector<double>> outputs;
    for (const Order& o : orders) {
        const ReductionProblem permuted = permute_reduced_axis(base.problem, o.order);
        tensors.push_back(run_problem(context, permuted));
        outputs.push_back(restore_order(permuted, values(tensors.back()), o.order));
    }
    const ReductionReference ref = reduction_reference(base.problem);

    ProblemFigures f;
    f.data_set = base.problem.data_set;
    for (const Order& o : orders) f.order_names.push_back(o.name);
    f.result = model.check(outputs, ref.value, ref.magnitude, base.problem.k, u_acc, u_out, underflow);

    const auto bits = [&](std::size_t order, std::size_t i) {
        return hex_bits(tensors[order], permuted_position(base.problem, orders[order].order, i));
    };
    const OrderBoundResult& r = f.result;
    const std::size_t d = r.worst_diameter_element;
    f.worst_diameter = record(instance, base.problem, d, ref.value[d], outputs[r.highest_order][d],
                              bits(r.highest_order, d), r.worst_diameter, r.worst_diameter_bound);
    const std::size_t e = r.worst_error_element;
    f.worst_error = record(instance, base.problem, e, ref.value[e], outputs[r.worst_error_order][e],
                           bits(r.worst_error_order, e), r.worst_error, r.worst_error_bound);
    return f;
}


}  // namespace

harness::CaseResult bounded_path_dependence(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const OrderBound model = OrderBound::from_catalog(*instance.contract);
    const std::int64_t permutations = context.integer("permutations");

    std::vector<KFigures> sweep;
    for (const ProblemShape& shape : problem_shapes(instance)) {
        KFigures k{shape.k, exactness::shape_text(shape.extents), {}};
        for (const BaseProblem& base : base_problems(instance, context.claims(), shape, context.seed()))
            k.problems.push_back(measure_problem(context, model, base, permutations));
        sweep.push_back(std::move(k));
    }
    return order_sweep_verdict(instance, model, sweep);
}

}  // namespace kcs::suites
