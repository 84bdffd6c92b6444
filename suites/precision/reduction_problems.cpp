#include "reduction_problems.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <stdexcept>
#include <thread>
#include <utility>

#include "kcs/reference/fill.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::precision {

namespace {

constexpr std::size_t kMostInputsListed = 64;  // SPEC section 9: beyond this, indices

std::size_t size(std::int64_t extent) { return static_cast<std::size_t>(extent); }

const std::string& input_dtype(const harness::Instance& instance, std::size_t operand) {
    return instance.config.inputs.at(operand);
}

std::vector<std::int64_t> output_shape(const ReductionProblem& p) {
    switch (p.op) {
        case ReducingOperator::matmul: return {p.rows, p.cols};
        case ReducingOperator::reduce_sum: return {p.rows};
        case ReducingOperator::softmax:
        case ReducingOperator::layernorm:
        case ReducingOperator::rmsnorm: return {p.rows, p.k};
    }
    return {};
}

// Values of tensor `tensor` drawn from `distribution` with the case seed,
// exactly as operator_io's generate() draws them (element i from its own
// Philox block), in chunks on several threads: each element is a pure
// function of its index, so the split cannot change a bit, and long
// reductions need millions of normal(0,1) draws (each a correctly rounded
// log and cos).
std::vector<double> drawn_values(const std::string& dtype, std::size_t count, const ref::Distribution& distribution,
                                 std::uint64_t seed, std::uint32_t tensor) {
    constexpr std::size_t kSmallestChunk = std::size_t{1} << 16;
    const ref::Format format = float_format(dtype);
    const ref::TensorStream where{seed, tensor};
    std::vector<std::uint32_t> bits(count);
    const std::size_t workers =
        std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), count / kSmallestChunk));
    std::vector<std::future<void>> chunks;
    for (std::size_t w = 0; w < workers; ++w) {
        const std::size_t first = count * w / workers, last = count * (w + 1) / workers;
        chunks.push_back(std::async(std::launch::async, [&, first, last] {
            ref::fill_bits(format, distribution, where, first,
                           std::span<std::uint32_t>(bits).subspan(first, last - first));
            ref::release_thread_caches();  // the draws' log and cos may take the MPFR path
        }));
    }
    for (auto& chunk : chunks) chunk.get();
    std::vector<double> out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = ref::decode(format, bits[i]);
    return out;
}

std::string element_text(const std::string& name, std::int64_t i, std::int64_t j, const std::string& bits) {
    return name + "[" + std::to_string(i) + "," + std::to_string(j) + "]=" + bits;
}

}  // namespace

ReducingOperator reducing_operator(const harness::Instance& instance) {
    const std::string& op = instance.op->id;
    if (op == "matmul") return ReducingOperator::matmul;
    if (op == "reduce_sum") return ReducingOperator::reduce_sum;
    if (op == "softmax") return ReducingOperator::softmax;
    if (op == "layernorm") return ReducingOperator::layernorm;
    if (op == "rmsnorm") return ReducingOperator::rmsnorm;
    throw std::invalid_argument("no reduced-axis problem is defined for operator " + op);
}

bool outputs_along_reduced_axis(ReducingOperator op) { return op == ReducingOperator::softmax || is_norm(op); }

bool is_norm(ReducingOperator op) { return op == ReducingOperator::layernorm || op == ReducingOperator::rmsnorm; }

ReductionProblem draw_problem(const harness::Instance& instance, const harness::Claims& claims, std::int64_t rows,
                              std::int64_t k, std::int64_t cols, const ref::Distribution& distribution,
                              std::uint64_t seed, std::string data_set) {
    ReductionProblem p;
    p.op = reducing_operator(instance);
    p.rows = rows;
    p.k = k;
    p.data_set = std::move(data_set);
    p.a = drawn_values(input_dtype(instance, 0), size(rows) * size(k), distribution, seed, 0);
    if (p.op == ReducingOperator::matmul) {
        p.cols = cols;
        p.b = drawn_values(input_dtype(instance, 1), size(k) * size(cols), distribution, seed, 1);
    }
    if (is_norm(p.op)) {
        p.b = drawn_values(input_dtype(instance, 1), size(k), distribution, seed, 1);
        p.eps = default_eps(instance);
    }
    if (p.op == ReducingOperator::layernorm) p.shift = drawn_values(input_dtype(instance, 2), size(k), distribution, seed, 2);
    read_as_claimed(p.a, float_format(input_dtype(instance, 0)), claims);
    if (!p.b.empty()) read_as_claimed(p.b, float_format(input_dtype(instance, 1)), claims);
    if (!p.shift.empty()) read_as_claimed(p.shift, float_format(input_dtype(instance, 2)), claims);
    return p;
}

void use_unit_affine(ReductionProblem& p) {
    if (!is_norm(p.op)) throw std::invalid_argument("use_unit_affine: not a norm problem");
    p.b.assign(size(p.k), 1.0);
    if (p.op == ReducingOperator::layernorm) p.shift.assign(size(p.k), 0.0);
}

double default_eps(const harness::Instance& instance) {
    for (const auto& a : instance.op->attributes)
        if (a.name == "eps" && a.default_value && a.default_value->is_number()) return a.default_value->get<double>();
    throw std::invalid_argument(instance.op->id + ": the catalog gives no default eps");
}

std::size_t output_count(const ReductionProblem& p) {
    switch (p.op) {
        case ReducingOperator::matmul: return size(p.rows) * size(p.cols);
        case ReducingOperator::reduce_sum: return size(p.rows);
        case ReducingOperator::softmax:
        case ReducingOperator::layernorm:
        case ReducingOperator::rmsnorm: return size(p.rows) * size(p.k);
    }
    return 0;
}

harness::HostTensor run_problem(harness::ProbeContext& context, const ReductionProblem& p) {
    const harness::Instance& instance = context.instance();
    std::vector<harness::HostTensor> inputs;
    inputs.push_back(from_values(input_dtype(instance, 0), {p.rows, p.k}, p.a));
    if (p.op == ReducingOperator::matmul) inputs.push_back(from_values(input_dtype(instance, 1), {p.k, p.cols}, p.b));
    if (is_norm(p.op)) inputs.push_back(from_values(input_dtype(instance, 1), {p.k}, p.b));
    if (p.op == ReducingOperator::layernorm) inputs.push_back(from_values(input_dtype(instance, 2), {p.k}, p.shift));
    auto outputs = context.run(invocation(instance, std::move(inputs), output_shape(p)));
    return std::move(outputs.at(0));
}

namespace {

ReductionReference layernorm_reference(const ReductionProblem& p, double eps) {
    auto r = ref::layernorm_oracle(p.a, p.b, p.shift, {size(p.rows), size(p.k)}, eps);
    std::vector<double> magnitude(r.value.size());
    for (std::size_t i = 0; i < magnitude.size(); ++i) {
        const std::size_t row = i / size(p.k);
        const double var = r.variance[row];
        const double e2 = var + r.eps;
        magnitude[i] = std::fabs(p.b[i % size(p.k)]) *
                       (std::fabs(r.normalized[i]) * (var + std::sqrt(var) * r.root_mean_square[row]) / e2 +
                        r.mean_abs[row] / std::sqrt(e2));
    }
    return {std::move(r.value), std::move(magnitude)};
}

ReductionReference rmsnorm_reference(const ReductionProblem& p, double eps) {
    auto r = ref::rmsnorm_oracle(p.a, p.b, {size(p.rows), size(p.k)}, eps);
    std::vector<double> magnitude(r.value.size());
    for (std::size_t i = 0; i < magnitude.size(); ++i) magnitude[i] = std::fabs(r.value[i]) / 2;
    return {std::move(r.value), std::move(magnitude)};
}

}  // namespace

ReductionReference reduction_reference(const ReductionProblem& p) {
    switch (p.op) {
        case ReducingOperator::matmul: {
            auto r = ref::matmul_oracle(p.a, p.b, {1, size(p.rows), size(p.k), size(p.cols)});
            return {std::move(r.value), std::move(r.magnitude)};
        }
        case ReducingOperator::reduce_sum: {
            auto r = ref::reduce_sum_oracle(p.a, {size(p.rows), size(p.k)});
            return {std::move(r.value), std::move(r.magnitude)};
        }
        case ReducingOperator::softmax: {
            auto r = ref::softmax_oracle(p.a, {size(p.rows), size(p.k)}, ref::MaskedRow::nan);
            std::vector<double> magnitude = r.value;
            return {std::move(r.value), std::move(magnitude)};
        }
        case ReducingOperator::layernorm: return layernorm_reference(p, p.eps);
        case ReducingOperator::rmsnorm: return rmsnorm_reference(p, p.eps);
    }
    throw std::logic_error("reduction_reference: unknown operator");
}

ReductionProblem permute_reduced_axis(const ReductionProblem& p, std::span<const std::uint64_t> order) {
    if (order.size() != size(p.k)) throw std::invalid_argument("permute_reduced_axis: the order is not of length K");
    ReductionProblem q = p;
    for (std::size_t row = 0; row < size(p.rows); ++row)
        for (std::size_t pos = 0; pos < order.size(); ++pos)
            q.a[row * size(p.k) + pos] = p.a[row * size(p.k) + order[pos]];
    if (p.op == ReducingOperator::matmul)
        for (std::size_t pos = 0; pos < order.size(); ++pos)
            for (std::size_t col = 0; col < size(p.cols); ++col)
                q.b[pos * size(p.cols) + col] = p.b[order[pos] * size(p.cols) + col];
    if (is_norm(p.op))  // gamma and beta are per feature: they move with the row's entries
        for (std::size_t pos = 0; pos < order.size(); ++pos) {
            q.b[pos] = p.b[order[pos]];
            if (!p.shift.empty()) q.shift[pos] = p.shift[order[pos]];
        }
    return q;
}

std::vector<double> restore_order(const ReductionProblem& p, std::vector<double> outputs,
                                  std::span<const std::uint64_t> order) {
    if (!outputs_along_reduced_axis(p.op)) return outputs;
    std::vector<double> restored(outputs.size());
    for (std::size_t row = 0; row < size(p.rows); ++row)
        for (std::size_t pos = 0; pos < order.size(); ++pos)
            restored[row * size(p.k) + order[pos]] = outputs[row * size(p.k) + pos];
    return restored;
}

std::size_t permuted_position(const ReductionProblem& p, std::span<const std::uint64_t> order, std::size_t index) {
    if (!outputs_along_reduced_axis(p.op)) return index;
    const std::size_t row = index / size(p.k);
    const std::size_t column = index % size(p.k);
    for (std::size_t pos = 0; pos < order.size(); ++pos)
        if (order[pos] == column) return row * size(p.k) + pos;
    throw std::invalid_argument("permuted_position: the order is not a permutation");
}

std::vector<std::string> element_inputs(const harness::Instance& instance, const ReductionProblem& p,
                                        std::size_t index) {
    const std::int64_t k = p.k;
    std::vector<std::string> listed;
    if (p.op == ReducingOperator::matmul) {
        const auto row = static_cast<std::int64_t>(index / size(p.cols));
        const auto col = static_cast<std::int64_t>(index % size(p.cols));
        if (2 * size(k) > kMostInputsListed)
            return {"A[" + std::to_string(row) + ",0:" + std::to_string(k) + "]",
                    "B[0:" + std::to_string(k) + "," + std::to_string(col) + "]"};
        for (std::int64_t j = 0; j < k; ++j) {
            listed.push_back(element_text("A", row, j, value_bits(input_dtype(instance, 0), p.a[size(row * k + j)])));
            listed.push_back(
                element_text("B", j, col, value_bits(input_dtype(instance, 1), p.b[size(j * p.cols + col)])));
        }
        return listed;
    }
    const auto row = static_cast<std::int64_t>(outputs_along_reduced_axis(p.op) ? index / size(k) : index);
    if (size(k) > kMostInputsListed) return {"x[" + std::to_string(row) + ",0:" + std::to_string(k) + "]"};
    for (std::int64_t j = 0; j < k; ++j)
        listed.push_back(element_text("x", row, j, value_bits(input_dtype(instance, 0), p.a[size(row * k + j)])));
    return listed;
}

std::string value_bits(const std::string& dtype, double value) {
    const ref::Format format = float_format(dtype);
    char text[16];
    const int digits = ref::info(format).storage_bits / 4;
    std::snprintf(text, sizeof text, "0x%0*x", digits, static_cast<unsigned>(ref::encode(format, value)));
    return text;
}

double unit_roundoff(const std::string& dtype) { return ref::info(float_format(dtype)).unit_roundoff; }

}  // namespace kcs::suites::precision
