// The operators of the ordering and memory-domain probes (matmul,
// reduce_sum, reduce_max, softmax, layernorm, rmsnorm, attention, unary,
// elementwise, cast) seen alike, as row problems: one operand whose rows are
// independent (A's rows for matmul, Q's for attention, x's rows otherwise:
// the batch of C-ORD-03), the other operands (matmul's B, attention's K and
// V, the norms' gamma and beta, elementwise's b and c) and one output row per
// operand row. The pointwise operators (unary, elementwise, cast) are one row
// of N elements whose other operands are as long as it. C-ORD-02, C-ORD-03
// and C-EXC-02 follow the same protocol for all of them, and the basic
// functional test draws its problems here; only this file knows how each
// operator lays out its data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/guarded_device.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/reference/distributions.hpp"

namespace kcs::suites {

struct ProblemShape {
    std::int64_t rows = 0;     // M for matmul, S (queries) for attention, 1 for the pointwise operators, R otherwise
    std::int64_t length = 0;   // the reduced axis: K (matmul, reductions), T (attention's keys), the row length N
    std::int64_t columns = 0;  // matmul's N, attention's head dimension D; 0 for the others
};

// One invocation with the shape it was built for. Input 0 is the row
// operand [rows, length]; the shared operands follow.
struct RowProblem {
    ProblemShape shape;
    harness::Invocation invocation;
};

class RowOperator {
public:
    // Throws std::invalid_argument for an operator other than the ten.
    explicit RowOperator(const harness::Instance& instance);

    const std::string& id() const;

    // A shape as the catalog writes it, in the operator's dimension order:
    // [M, K, N] for matmul, [S, T, D] for attention, [N] for the pointwise
    // operators, [R, K] (or [R, N]) for the others.
    ProblemShape shape(const std::vector<std::int64_t>& dims) const;
    // The shape of the class's functional test (catalog.yaml, functional_tests).
    ProblemShape functional_test_shape(const spec::Catalog& catalog) const;
    std::string describe(const ProblemShape& shape) const;  // "[M, K, N] = [17, 13, 19]"

    // The row operand [rows, length] (input 0; [S, D] for attention, [N] for
    // the pointwise operators), drawn from `distribution`.
    harness::HostTensor row_operand(const ProblemShape& shape, const ref::Distribution& distribution,
                                    std::uint64_t seed) const;
    // The other operands, inputs 1, 2 (matmul: B [K, N]; attention: K and V
    // [T, D]; layernorm: gamma and beta [N]; rmsnorm: gamma [N]; elementwise:
    // b, and c for mul_add, [N]); none for the reductions, softmax, unary and cast.
    std::vector<harness::HostTensor> shared_operands(const ProblemShape& shape, const ref::Distribution& distribution,
                                                     std::uint64_t seed) const;

    // The problem on given operands; and one whose operands all come from
    // `distribution` with `seed` (the catalog generator, each input its own tensor).
    RowProblem make(const ProblemShape& shape, harness::HostTensor rows, std::vector<harness::HostTensor> shared) const;
    RowProblem generate(const ProblemShape& shape, const ref::Distribution& distribution, std::uint64_t seed) const;

    // The problem's invocation with tensors of the right dtypes and shapes
    // and no bytes: what the support phase asks supports() about.
    harness::Invocation declared(const ProblemShape& shape) const;

    // N (matmul), D (attention), 1 (reductions), the row length (the others).
    std::int64_t outputs_per_row(const ProblemShape& shape) const;

    // RN_out(y*) of every output element, encoded in the output dtype: the
    // operator's oracle (reference/oracles) rounded once.
    std::vector<std::uint64_t> rounded_oracle(const RowProblem& problem, const harness::Claims& claims) const;

    // The inputs one output element depends on, for evidence (SPEC.md
    // section 9): "A[i]=0xBITS" each when there are at most 64 of them,
    // otherwise the index ranges, which the generator regenerates.
    std::vector<std::string> dependencies(const RowProblem& problem, std::size_t output_element) const;

private:
    enum class Kind { matmul, reduce_sum, reduce_max, softmax, layernorm, rmsnorm, attention, unary, elementwise, cast };

    bool is_norm() const { return kind_ == Kind::layernorm || kind_ == Kind::rmsnorm; }
    bool is_pointwise() const { return kind_ == Kind::unary || kind_ == Kind::elementwise || kind_ == Kind::cast; }
    std::size_t operand_count() const;  // the inputs a call passes
    std::vector<std::int64_t> row_operand_dims(const ProblemShape& shape) const;
    std::vector<std::int64_t> shared_operand_dims(const ProblemShape& shape) const;
    double eps() const;  // the norms' eps: the catalog's default, which the probes leave in force

    const harness::Instance& instance_;
    Kind kind_;
};

}  // namespace kcs::suites
