#include "row_problems.hpp"

#include <stdexcept>

#include "kcs/reference/attention_oracle.hpp"
#include "kcs/reference/cast_oracle.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/unary_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../precision/reduction_problems.hpp"

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

// The definition's values (mul_add: rounded twice, as written; the fused
// value fp_contract: on also accepts is C-CMP-03's to judge).
std::vector<double> elementwise_values(const std::string& function, const std::vector<harness::HostTensor>& inputs,
                                       ref::Format format) {
    ref::ElementwiseFunction f;
    if (function == "add") f = ref::ElementwiseFunction::add;
    else if (function == "mul") f = ref::ElementwiseFunction::mul;
    else if (function == "maximum") f = ref::ElementwiseFunction::maximum;
    else if (function == "mul_add") f = ref::ElementwiseFunction::mul_add;
    else throw std::invalid_argument("elementwise has no function '" + function + "'");
    const std::vector<double> c = inputs.size() > 2 ? values(inputs[2]) : std::vector<double>{};
    return ref::elementwise_oracle(f, values(inputs[0]), values(inputs[1]), c, format).value;
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
    else if (op == "attention") kind_ = Kind::attention;
    else if (op == "unary") kind_ = Kind::unary;
    else if (op == "elementwise") kind_ = Kind::elementwise;
    else if (op == "cast") kind_ = Kind::cast;
    else throw std::invalid_argument("no row problem is defined for operator '" + op + "'");
    if (kind_ == Kind::unary && !ref::parse_unary_function(instance.function.value_or("")))
        throw std::invalid_argument("unary has no function '" + instance.function.value_or("") + "'");
}

const std::string& RowOperator::id() const { return instance_.op->id; }

double RowOperator::eps() const { return precision::default_eps(instance_); }

std::size_t RowOperator::operand_count() const {
    switch (kind_) {
        case Kind::matmul: return 2;
        case Kind::layernorm:
        case Kind::attention: return 3;
        case Kind::rmsnorm: return 2;
        // The binary functions take a and b; the catalog's c is mul_add's alone.
        case Kind::elementwise: return instance_.function == "mul_add" ? 3 : 2;
        default: return 1;
    }
}

ProblemShape RowOperator::shape(const std::vector<std::int64_t>& dims) const {
    const std::size_t rank = kind_ == Kind::matmul || kind_ == Kind::attention ? 3 : is_pointwise() ? 1 : 2;
    if (dims.size() != rank)
        throw std::invalid_argument(id() + " shapes have " + std::to_string(rank) + " dimensions, got " +
                                    join_dims(dims));
    for (const auto d : dims)
        if (d < 1) throw std::invalid_argument(id() + " shape " + join_dims(dims) + " has an empty dimension");
    if (kind_ == Kind::matmul) return {dims[0], dims[1], dims[2]};
    if (kind_ == Kind::attention) return {dims[0], dims[1], dims[2]};  // [S, T, D]
    if (is_pointwise()) return {1, dims[0], 0};
    return {dims[0], dims[1], 0};
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
    if (kind_ == Kind::attention) return "[S, T, D] = " + join_dims({s.rows, s.length, s.columns});
    if (is_pointwise()) return "[N] = " + join_dims({s.length});
    if (kind_ == Kind::softmax || is_norm()) return "[R, N] = " + join_dims({s.rows, s.length});
    return "[R, K] = " + join_dims({s.rows, s.length});
}

std::vector<std::int64_t> RowOperator::row_operand_dims(const ProblemShape& s) const {
    if (kind_ == Kind::attention) return {s.rows, s.columns};
    if (is_pointwise()) return {s.length};
    return {s.rows, s.length};
}

// Every other operand has the same extents: B [K, N]; K and V [T, D];
// gamma, beta, b and c [N].
std::vector<std::int64_t> RowOperator::shared_operand_dims(const ProblemShape& s) const {
    if (kind_ == Kind::matmul || kind_ == Kind::attention) return {s.length, s.columns};
    return {s.length};
}

harness::HostTensor RowOperator::row_operand(const ProblemShape& s, const ref::Distribution& distribution,
                                             std::uint64_t seed) const {
    return suites::generate(instance_.config.inputs[0], row_operand_dims(s), distribution, seed, 0);
}

std::vector<harness::HostTensor> RowOperator::shared_operands(const ProblemShape& s,
                                                              const ref::Distribution& distribution,
                                                              std::uint64_t seed) const {
    std::vector<harness::HostTensor> out;
    for (std::size_t t = 1; t < operand_count(); ++t)
        out.push_back(suites::generate(instance_.config.inputs[t], shared_operand_dims(s), distribution, seed,
                                       static_cast<std::uint32_t>(t)));
    return out;
}

harness::Invocation RowOperator::declared(const ProblemShape& s) const {
    const auto no_bytes = [&](std::size_t t, std::vector<std::int64_t> dims) {
        return harness::HostTensor{abi_dtype(instance_.config.inputs[t]), std::move(dims), {}};
    };
    std::vector<harness::HostTensor> shared;
    for (std::size_t t = 1; t < operand_count(); ++t) shared.push_back(no_bytes(t, shared_operand_dims(s)));
    return make(s, no_bytes(0, row_operand_dims(s)), std::move(shared)).invocation;
}

RowProblem RowOperator::make(const ProblemShape& s, harness::HostTensor rows,
                             std::vector<harness::HostTensor> shared) const {
    std::vector<harness::HostTensor> inputs;
    inputs.push_back(std::move(rows));
    for (auto& t : shared) inputs.push_back(std::move(t));
    std::vector<std::int64_t> output_shape{s.rows};
    if (kind_ != Kind::reduce_sum && kind_ != Kind::reduce_max) output_shape.push_back(outputs_per_row(s));
    if (is_pointwise()) output_shape = {s.length};
    return {s, invocation(instance_, std::move(inputs), std::move(output_shape))};
}

RowProblem RowOperator::generate(const ProblemShape& s, const ref::Distribution& distribution,
                                 std::uint64_t seed) const {
    return make(s, row_operand(s, distribution, seed), shared_operands(s, distribution, seed));
}

std::int64_t RowOperator::outputs_per_row(const ProblemShape& s) const {
    switch (kind_) {
        case Kind::matmul:
        case Kind::attention: return s.columns;
        case Kind::unary:
        case Kind::elementwise:
        case Kind::cast:
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
        case Kind::attention: {
            ref::AttentionOptions options;  // the catalog's defaults: not causal, scale 1/sqrt(D)
            options.accumulate = acc;
            options.masked_row = masked_row_claim(claims);
            exact = ref::attention_oracle(x, values(inputs[1]), values(inputs[2]),
                                          {size(s.rows), size(s.length), size(s.columns)}, options)
                        .value;
            break;
        }
        case Kind::unary:
            exact = ref::unary_oracle(*ref::parse_unary_function(instance_.function.value_or("")), x, float_format(instance_.config.output));
            break;
        case Kind::elementwise:
            exact = elementwise_values(instance_.function.value_or(""), inputs, float_format(instance_.config.output));
            break;
        case Kind::cast: exact = ref::cast_oracle(x, float_format(instance_.config.inputs[0]), float_format(instance_.config.output)); break;
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
    if (is_pointwise()) {
        // out[i] reads element i of every operand.
        for (std::size_t t = 0; t < inputs.size(); ++t) add_inputs(out, names[t].name, inputs[t], output_element, 1, 1, 1);
        return out;
    }
    if (kind_ == Kind::attention) {
        // O[s, d] reads row s of Q, all of K and column d of V.
        const std::size_t d_count = size(s.columns), keys = size(s.length);
        const std::size_t row = output_element / d_count, d = output_element % d_count;
        const std::size_t listed = d_count + keys * d_count + keys;
        add_inputs(out, names[0].name, inputs[0], row * d_count, 1, d_count, listed);
        add_inputs(out, names[1].name, inputs[1], 0, 1, keys * d_count, listed);
        add_inputs(out, names[2].name, inputs[2], d, d_count, keys, listed);
        return out;
    }
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
