// Problems of the reducing operators whose reduced axis the precision and
// ordering classes study (matmul's K, the last axis of reduce_sum, softmax
// and the norms, whose mean, variance and mean square reduce it): operands
// drawn from the catalog generator, their invocation, the oracle's y* and
// magnitude term, and permutations of the reduced axis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kcs/harness/probe.hpp"
#include "kcs/reference/distributions.hpp"

namespace kcs::suites::precision {

enum class ReducingOperator { matmul, reduce_sum, softmax, layernorm, rmsnorm };

// Whether the operator's outputs are indexed by the reduced axis (softmax
// and the norms: one output per entry of the row).
bool outputs_along_reduced_axis(ReducingOperator op);
bool is_norm(ReducingOperator op);

// Throws std::invalid_argument for an operator without a reduced axis here.
ReducingOperator reducing_operator(const harness::Instance& instance);

// One problem as exact values of the configuration's input dtypes.
struct ReductionProblem {
    ReducingOperator op = ReducingOperator::reduce_sum;
    std::int64_t rows = 0;  // M (matmul) or R
    std::int64_t k = 0;     // the reduced axis
    std::int64_t cols = 1;  // N (matmul); 1 otherwise
    std::vector<double> a;  // matmul A [rows, k]; reduce_sum and softmax x [rows, k]
    std::vector<double> b;  // matmul B [k, cols]; the norms' gamma [k]; empty otherwise
    std::vector<double> shift;  // layernorm's beta [k]; empty otherwise
    double eps = 0;         // the norms' eps (the catalog default); 0 otherwise
    std::string data_set;   // how the operands were made, for evidence
};

// Operands from `distribution` with the case seed (operand t is input
// tensor t), read as the claims say (operator_io.hpp, read_as_claimed).
ReductionProblem draw_problem(const harness::Instance& instance, const harness::Claims& claims, std::int64_t rows,
                              std::int64_t k, std::int64_t cols, const ref::Distribution& distribution,
                              std::uint64_t seed, std::string data_set);

// A norm problem's gamma set to ones and beta to zeros, as C-ORD-01's
// precondition runs the norms (y is then the normalised row itself).
void use_unit_affine(ReductionProblem& problem);

// The norms' eps: the catalog's default, which the probes leave in force.
// Throws std::invalid_argument where the operator gives none.
double default_eps(const harness::Instance& instance);

std::size_t output_count(const ReductionProblem& problem);

// Runs the problem on the adapter (under the integrity protocol) and returns
// its output tensor.
harness::HostTensor run_problem(harness::ProbeContext& context, const ReductionProblem& problem);

// y* of every output and the magnitude term of its reduction: sum |a_k b_k|
// (matmul) and sum |x_k| (reduce_sum), as the oracles return them; for
// softmax y_i*, the denominator's magnitude s (a sum of positive terms, so
// s itself) carried to y_i = e_i / s by its sensitivity |dy_i / ds| * s = y_i.
// For the norms, the statistics' magnitude carried to y_i as C-ORD-01
// writes it (its oracle is C-PRC-01's, which leaves the composites' term to
// "the reduction under test"): layernorm
// |w_i| (|z_i| (var* + s R) / e^2 + mean|x| / e), the mean's error over e
// and the variance's, two-pass or updating, relative through the
// normaliser; rmsnorm |y_i*| / 2, the mean square's relative error halved
// by the square root.
struct ReductionReference {
    std::vector<double> value;
    std::vector<double> magnitude;
};
ReductionReference reduction_reference(const ReductionProblem& problem);

// The same problem with its reduced axis reordered: position p holds the
// entry that was at order[p] (the columns of A and rows of B together; a
// norm's row with its gamma and beta).
ReductionProblem permute_reduced_axis(const ReductionProblem& problem, std::span<const std::uint64_t> order);

// Outputs of a permuted problem back in the original problem's order
// (only softmax and norm outputs are indexed by the reduced axis).
std::vector<double> restore_order(const ReductionProblem& problem, std::vector<double> outputs,
                                  std::span<const std::uint64_t> order);

// Where output `index` of the original problem lies in the outputs of the
// problem permuted by `order` (softmax outputs move with the axis).
std::size_t permuted_position(const ReductionProblem& problem, std::span<const std::uint64_t> order, std::size_t index);

// The inputs output `index` depends on: their bits ("x[3,17]=0x3f800000")
// when there are at most 64 of them, else their index ranges (SPEC section 9).
std::vector<std::string> element_inputs(const harness::Instance& instance, const ReductionProblem& problem,
                                        std::size_t index);

// The encoding of a value of `dtype`, "0x3f800000".
std::string value_bits(const std::string& dtype, double value);

// u(t) of a catalog float dtype.
double unit_roundoff(const std::string& dtype);

}  // namespace kcs::suites::precision
