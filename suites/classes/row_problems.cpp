#include "row_problems.hpp"

#include <stdexcept>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites {

namespace {

// Evidence lists input bits only up to this many inputs (SPEC.md section 9).
constexpr std::size_t kMaxListedInputs = 64;

std::size_t size(std::int64_t extent) { return static_cast<std::size_t>(extent); }

std::string join_dims(const std::vector<std::int64_t>& dims) {
    std::string text = "[";
    for (std::size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
    return text + "]";
}

ref::MaskedRow masked_row_claim(const harness::Claims& claims) {
    return claims.at("masked_row") == "zero" ? ref::MaskedRow::zero : ref::MaskedRow::nan;
}

// Elements first, first + stride, ... (count of them) of an input, listed
// with their bits when few, else named as a strided range.
void add_inputs(std::vector<std::string>& out, const std::string& name, const harness::HostTensor& tensor,
                std::size_t first, std::size_t stride, std::size_t count, std::size_t total_listed) {
    if (total_listed <= kMaxListedInputs) {
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t index = first + i * stride;
            out.push_back(name + "[" + std::to_string(index) + "]=" + hex_bits(tensor, index));
        }
        return;
    }
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
    // on "literal" + std::string temporaries.
    std::string range = name;
    range.append("[").append(std::to_string(first));
    if (stride != 1) range.append(" + ").append(std::to_string(stride)).append("*j");
    else range.append(" + j");
    range.append("] for j < ").append(std::to_string(count)).append(" (regenerated from the case seed)");
    out.push_back(std::move(range));
}

}  // namespace

RowOperator::RowOperator(const harness::Instance& instance) : instance_(instance) {
    const std::string& op = instance.op->id;
    if (op == "matmul") kind_ = Kind::matmul;
    else if (op == "reduce_sum") kind_ = Kind::reduce_sum;
    else if (op == "reduce_max") kind_ = Kind::reduce_max;
    else if (op == "softmax") kind_ = Kind::softmax;
    else if (op == "layernorm") kind_ = Kind::layernorm;
    else if (op == "rmsnorm") kind_ = Kind::rmsnorm;
    else throw std::invalid_argument("no row problem is defined for operator '" + op + "'");
}

const std::string& RowOperator::id() const { return instance_.op->id; }

double RowOperator::eps() const {
    for (const auto& a : instance_.op->attributes)
        if (a.name == "eps" && a.default_value && a.default_value->is_number()) return a.default_value->get<double>();
    throw std::invalid_argument(id() + ": the catalog gives no default eps");
}

ProblemShape RowOperator::shape(const std::vector<std::int64_t>& dims) const {
    const std::size_t rank = kind_ == Kind::matmul ? 3 : 2;
    if (dims.size() != rank)
        throw std::invalid_argument(id() + " shapes have " + std::to_string(rank) + " dimensions, got " +
                                    join_dims(dims));
    for (const auto d : dims)
        if (d < 1) throw std::invalid_argument(id() + " shape " + join_dims(dims) + " has an empty dimension");
    return kind_ == Kind::matmul ? ProblemShape{dims[0], dims[1], dims[2]} : ProblemShape{dims[0], dims[1], 0};
}

ProblemShape RowOperator::functional_test_shape(const spec::Catalog& catalog) const {
    const std::string& test_id = instance_.contract->calibration.functional_test;
    const spec::FunctionalTest* test = catalog.find_functional_test(test_id);
    if (!test || !test->shapes.contains(id()))
        throw std::invalid_argument("the functional test '" + test_id + "' gives no shape for " + id());
    const auto& dims = test->shapes.at(id());
    return shape(std::vector<std::int64_t>(dims.begin(), dims.end()));
}

std::string RowOperator::describe(const ProblemShape& s) const {
    if (kind_ == Kind::matmul) return "[M, K, N] = " + join_dims({s.rows, s.length, s.columns});
    if (kind_ == Kind::softmax || is_norm()) return "[R, N] = " + join_dims({s.rows, s.length});
    return "[R, K] = " + join_dims({s.rows, s.length});
}

harness::HostTensor RowOperator::row_operand(const ProblemShape& s, const ref::Distribution& distribution,
                                             std::uint64_t seed) const {
    return suites::generate(instance_.config.inputs[0], {s.rows, s.length}, distribution, seed, 0);
}

std::vector<harness::HostTensor> RowOperator::shared_operands(const ProblemShape& s,
                                                              const ref::Distribution& distribution,
                                                              std::uint64_t seed) const {
    switch (kind_) {
        case Kind::matmul:
            return {suites::generate(instance_.config.inputs[1], {s.length, s.columns}, distribution, seed, 1)};
        case Kind::layernorm:
            return {suites::generate(instance_.config.inputs[1], {s.length}, distribution, seed, 1),
                    suites::generate(instance_.config.inputs[2], {s.length}, distribution, seed, 2)};
        case Kind::rmsnorm:
            return {suites::generate(instance_.config.inputs[1], {s.length}, distribution, seed, 1)};
        default: return {};
    }
}

RowProblem RowOperator::make(const ProblemShape& s, harness::HostTensor rows,
                             std::vector<harness::HostTensor> shared) const {
    std::vector<harness::HostTensor> inputs;
    inputs.push_back(std::move(rows));
    for (auto& t : shared) inputs.push_back(std::move(t));
    std::vector<std::int64_t> output_shape{s.rows};
    if (kind_ != Kind::reduce_sum && kind_ != Kind::reduce_max) output_shape.push_back(outputs_per_row(s));
    return {s, invocation(instance_, std::move(inputs), std::move(output_shape))};
}

RowProblem RowOperator::generate(const ProblemShape& s, const ref::Distribution& distribution,
                                 std::uint64_t seed) const {
    return make(s, row_operand(s, distribution, seed), shared_operands(s, distribution, seed));
}

std::int64_t RowOperator::outputs_per_row(const ProblemShape& s) const {
    switch (kind_) {
        case Kind::matmul: return s.columns;
        case Kind::softmax:
        case Kind::layernorm:
        case Kind::rmsnorm: return s.length;
        default: return 1;
    }
}

std::vector<std::uint64_t> RowOperator::rounded_oracle(const RowProblem& problem, const harness::Claims& claims) const {
    const ProblemShape& s = problem.shape;
    const auto& inputs = problem.invocation.inputs;
    const std::vector<double> x = values(inputs[0]);
    const ref::RowShape rows{size(s.rows), size(s.length)};
    const ref::Format acc = float_format(instance_.config.accumulate.value_or("f32"));
    std::vector<double> exact;
    switch (kind_) {
        case Kind::matmul:
            exact = ref::matmul_oracle(x, values(inputs[1]), {1, size(s.rows), size(s.length), size(s.columns)}).value;
            break;
        case Kind::reduce_sum: exact = ref::reduce_sum_oracle(x, rows).value; break;
        case Kind::reduce_max: exact = ref::reduce_max_oracle(x, rows); break;
        case Kind::softmax: exact = ref::softmax_oracle(x, rows, masked_row_claim(claims)).value; break;
        case Kind::layernorm:
            exact = ref::layernorm_oracle(x, values(inputs[1]), values(inputs[2]), rows, eps(), acc).value;
            break;
        case Kind::rmsnorm: exact = ref::rmsnorm_oracle(x, values(inputs[1]), rows, eps(), acc).value; break;
    }
    const ref::Format out = float_format(instance_.config.output);
    std::vector<std::uint64_t> bits(exact.size());
    for (std::size_t i = 0; i < exact.size(); ++i) bits[i] = ref::encode(out, exact[i]);
    return bits;
}

std::vector<std::string> RowOperator::dependencies(const RowProblem& problem, std::size_t output_element) const {
    const ProblemShape& s = problem.shape;
    const auto& inputs = problem.invocation.inputs;
    const auto& names = instance_.op->inputs;
    const std::size_t length = size(s.length);
    std::vector<std::string> out;
    if (kind_ == Kind::matmul) {
        // C[m, n] reads row m of A and column n of B.
        const std::size_t m = output_element / size(s.columns), n = output_element % size(s.columns);
        add_inputs(out, names[0].name, inputs[0], m * length, 1, length, 2 * length);
        add_inputs(out, names[1].name, inputs[1], n, size(s.columns), length, 2 * length);
        return out;
    }
    // y[r] (or y[r, i] of softmax and the norms) reads the whole row r of
    // x; a norm's y[r, i] also gamma[i] (and beta[i]).
    const std::size_t row = output_element / size(outputs_per_row(s));
    const std::size_t shared = is_norm() ? inputs.size() - 1 : 0;
    add_inputs(out, names[0].name, inputs[0], row * length, 1, length, length + shared);
    for (std::size_t t = 1; t <= shared; ++t)
        add_inputs(out, names[t].name, inputs[t], output_element % length, 1, 1, length + shared);
    return out;
}

}  // namespace kcs::suites
