// The operators of the ordering and memory-domain probes (matmul,
// reduce_sum, reduce_max, softmax, layernorm, rmsnorm) seen alike, as row
// problems: one operand whose rows are independent (A's rows for matmul,
// x's rows otherwise: the batch of C-ORD-03), the operands every row shares
// (matmul's B, the norms' gamma and beta) and one output row per operand
// row. C-ORD-02, C-ORD-03 and C-EXC-02 follow the same protocol for all of
// them; only this file knows how each lays out its data.
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
    std::int64_t rows = 0;     // M for matmul, R otherwise
    std::int64_t length = 0;   // the reduced axis K (matmul, reductions) or the row length N (softmax)
    std::int64_t columns = 0;  // matmul's N; 0 for the row operators
};

// One invocation with the shape it was built for. Input 0 is the row
// operand [rows, length]; the shared operands follow.
struct RowProblem {
    ProblemShape shape;
    harness::Invocation invocation;
};

class RowOperator {
public:
    // Throws std::invalid_argument for an operator other than the six.
    explicit RowOperator(const harness::Instance& instance);

    const std::string& id() const;

    // A shape as the catalog writes it, in the operator's dimension order:
    // [M, K, N] for matmul, [R, K] (or [R, N]) for the others.
    ProblemShape shape(const std::vector<std::int64_t>& dims) const;
    // The shape of the class's functional test (catalog.yaml, functional_tests).
    ProblemShape functional_test_shape(const spec::Catalog& catalog) const;
    std::string describe(const ProblemShape& shape) const;  // "[M, K, N] = [17, 13, 19]"

    // The row operand [rows, length] (input 0), drawn from `distribution`.
    harness::HostTensor row_operand(const ProblemShape& shape, const ref::Distribution& distribution,
                                    std::uint64_t seed) const;
    // The operands every row shares (matmul: B [K, N]; layernorm: gamma and
    // beta [N]; rmsnorm: gamma [N]), inputs 1, 2; none for the reductions and softmax.
    std::vector<harness::HostTensor> shared_operands(const ProblemShape& shape, const ref::Distribution& distribution,
                                                     std::uint64_t seed) const;

    // The problem on given operands; and one whose operands all come from
    // `distribution` with `seed` (the catalog generator, each input its own tensor).
    RowProblem make(const ProblemShape& shape, harness::HostTensor rows, std::vector<harness::HostTensor> shared) const;
    RowProblem generate(const ProblemShape& shape, const ref::Distribution& distribution, std::uint64_t seed) const;

    std::int64_t outputs_per_row(const ProblemShape& shape) const;  // N (matmul), 1 (reductions), N (softmax, norms)

    // RN_out(y*) of every output element, encoded in the output dtype: the
    // operator's oracle (reference/oracles) rounded once.
    std::vector<std::uint64_t> rounded_oracle(const RowProblem& problem, const harness::Claims& claims) const;

    // The inputs one output element depends on, for evidence (SPEC.md
    // section 9): "A[i]=0xBITS" each when there are at most 64 of them,
    // otherwise the index ranges, which the generator regenerates.
    std::vector<std::string> dependencies(const RowProblem& problem, std::size_t output_element) const;

private:
    enum class Kind { matmul, reduce_sum, reduce_max, softmax, layernorm, rmsnorm };

    bool is_norm() const { return kind_ == Kind::layernorm || kind_ == Kind::rmsnorm; }
    double eps() const;  // the norms' eps: the catalog's default, which the probes leave in force

    const harness::Instance& instance_;
    Kind kind_;
};

}  // namespace kcs::suites
