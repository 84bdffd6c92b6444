#include "operator_checks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <string_view>

#include "adapter_failure.hpp"
#include "op_checks.hpp"

namespace kcs::device {

namespace {

constexpr std::array<std::string_view, 7> kUnaryFunctions{"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"};
constexpr std::array<std::string_view, 4> kElementwiseFunctions{"add", "mul", "maximum", "mul_add"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, const std::string& name) {
    for (const auto candidate : names)
        if (candidate == name) return true;
    return false;
}

void check_reduction(const Request& request, std::span<const DtypeConfig> configs) {
    check_counts(request, 1, 1);
    check_dtypes(request, configs);
    check_attributes(request, {});
    check_no_function(request);
    check_row_operand(request, request.inputs[0]);
    check_reduced_output(request, request.outputs[0], request.inputs[0]);
}

void check_norm(const Request& request, bool has_beta) {
    check_counts(request, has_beta ? 3 : 2, 1);
    check_dtypes(request, kAccumulatingConfigs);
    check_attributes(request, {{"eps", false}});
    check_no_function(request);
    check_eps(request);
    const TensorRef& x = request.inputs[0];
    check_row_operand(request, x);
    check_feature_vector(request, "gamma", request.inputs[1], x);
    if (has_beta) check_feature_vector(request, "beta", request.inputs[2], x);
    check_same_shape(request, request.outputs[0], x);
}

}  // namespace

void check_matmul(const Request& request) {
    check_counts(request, 2, 1);
    check_dtypes(request, kAccumulatingConfigs);
    check_attributes(request, {});
    check_no_function(request);
    const TensorRef& a = request.inputs[0];
    const TensorRef& b = request.inputs[1];
    const TensorRef& c = request.outputs[0];
    const std::size_t rank = a.shape.size();
    if (rank != 2 && rank != 3)
        unsupported("matmul: A " + shape_text(a.shape) + " has rank " + std::to_string(rank) +
                    "; the adapter computes rank 2 [M, K] or rank 3 [B, M, K]");
    const std::string shapes =
        " (A " + shape_text(a.shape) + ", B " + shape_text(b.shape) + ", C " + shape_text(c.shape) + ")";
    if (b.shape.size() != rank || c.shape.size() != rank) invalid("matmul: A, B and C must have the same rank" + shapes);
    if (rank == 3 && (b.shape[0] != a.shape[0] || c.shape[0] != a.shape[0]))
        invalid("matmul: A, B and C must have the same batch dimension" + shapes);
    if (b.shape[rank - 2] != a.shape[rank - 1]) invalid("matmul: the K of A and B differ" + shapes);
    if (c.shape[rank - 2] != a.shape[rank - 2] || c.shape[rank - 1] != b.shape[rank - 1])
        invalid("matmul: C must be [M, N] of A [M, K] and B [K, N]" + shapes);
}

void check_softmax(const Request& request) {
    check_counts(request, 1, 1);
    check_dtypes(request, kAccumulatingConfigs);
    check_attributes(request, {});
    check_no_function(request);
    check_row_operand(request, request.inputs[0]);
    check_same_shape(request, request.outputs[0], request.inputs[0]);
}

void check_attention(const Request& request) {
    check_counts(request, 3, 1);
    check_dtypes(request, kAccumulatingConfigs);
    check_attributes(request, {{"causal", true}, {"scale", false}});
    check_no_function(request);
    const TensorRef& q = request.inputs[0];
    const TensorRef& k = request.inputs[1];
    const TensorRef& v = request.inputs[2];
    const TensorRef& o = request.outputs[0];
    for (const TensorRef* t : {&q, &k, &v, &o})
        if (t->shape.size() != 2)
            unsupported("attention: Q, K, V and O must have rank 2 ([S, D], [T, D], [T, D], [S, D]), got " +
                        shape_text(t->shape));
    const std::string shapes = " (Q " + shape_text(q.shape) + ", K " + shape_text(k.shape) + ", V " +
                               shape_text(v.shape) + ", O " + shape_text(o.shape) + ")";
    if (k.shape[0] < 1 || q.shape[1] < 1)
        invalid("attention: at least one key and a head dimension of at least 1 are required" + shapes);
    if (k.shape != v.shape || k.shape[1] != q.shape[1] || o.shape != q.shape)
        invalid("attention: shapes must be Q [S, D], K [T, D], V [T, D], O [S, D]" + shapes);
}

void check_reduce_sum(const Request& request) { check_reduction(request, kAccumulatingConfigs); }

void check_reduce_max(const Request& request) { check_reduction(request, kSameDtypeConfigs); }

void check_layernorm(const Request& request) { check_norm(request, true); }

void check_rmsnorm(const Request& request) { check_norm(request, false); }

void check_unary(const Request& request) {
    if (request.function.empty()) invalid("unary needs a function (exp, log, tanh, erf, gelu, sigmoid, rsqrt)");
    if (!listed(kUnaryFunctions, request.function)) unsupported("unary has no function '" + request.function + "'");
    check_attributes(request, {});
    if (request.inputs.size() != 1 || request.outputs.size() != 1)
        invalid("unary takes one input (x) and one output (y)");
    check_dtypes(request, kSameDtypeConfigs);
    if (request.inputs[0].shape != request.outputs[0].shape) invalid("unary: y must have the shape of x");
}

void check_elementwise(const Request& request) {
    if (request.function.empty()) invalid("elementwise needs a function (add, mul, maximum, mul_add)");
    if (!listed(kElementwiseFunctions, request.function))
        unsupported("elementwise has no function '" + request.function + "'");
    check_attributes(request, {});
    // c is read by mul_add only; a binary function accepts it and ignores it.
    const bool ternary = request.function == "mul_add";
    const std::size_t inputs = request.inputs.size();
    if ((ternary ? inputs != 3 : inputs != 2 && inputs != 3) || request.outputs.size() != 1)
        invalid(ternary ? "elementwise mul_add takes three inputs (a, b, c) and one output"
                        : "elementwise " + request.function + " takes two inputs (a, b) and one output");
    const TensorRef& out = request.outputs[0];
    if (!is_float(out.dtype)) unsupported(std::string("elementwise computes f32, f16 and bf16; got ") + name_of(out.dtype));
    for (std::size_t k = 0; k < (ternary ? 3u : 2u); ++k) {
        if (request.inputs[k].dtype != out.dtype)
            unsupported(std::string("elementwise operands and output share one dtype; got ") +
                        name_of(request.inputs[k].dtype) + " and " + name_of(out.dtype));
        if (request.inputs[k].shape != out.shape)
            invalid("elementwise operands and output must have one shape (no broadcasting)");
    }
}

void check_cast(const Request& request) {
    check_no_function(request);
    check_attributes(request, {});
    if (request.inputs.size() != 1 || request.outputs.size() != 1) invalid("cast takes one input (x) and one output (y)");
    const Dtype from = request.inputs[0].dtype;
    const Dtype to = request.outputs[0].dtype;
    const bool narrow = from == Dtype::f32 && (to == Dtype::f16 || to == Dtype::bf16);
    const bool widen = (from == Dtype::f16 || from == Dtype::bf16) && to == Dtype::f32;
    if (!narrow && !widen)
        unsupported(std::string("cast converts f32 -> f16, f32 -> bf16, f16 -> f32 and bf16 -> f32; got ") +
                    name_of(from) + " -> " + name_of(to));
    if (request.inputs[0].shape != request.outputs[0].shape) invalid("cast: y must have the shape of x");
}

void check_gather(const Request& request) {
    check_no_function(request);
    if (!request.attributes.empty())
        unsupported("gather takes no attributes; got '" + request.attributes.begin()->first + "'");
    if (request.inputs.size() != 2 || request.outputs.size() != 1)
        invalid("gather takes two inputs (table, index) and one output (out)");
    const TensorRef& table = request.inputs[0];
    const TensorRef& index = request.inputs[1];
    const TensorRef& out = request.outputs[0];
    if (!is_float(table.dtype) || (index.dtype != Dtype::i32 && index.dtype != Dtype::i64) || out.dtype != table.dtype)
        unsupported(std::string("gather reads an f32, f16 or bf16 table with i32 or i64 indices into the table's dtype; "
                                "got table ") + name_of(table.dtype) + ", index " + name_of(index.dtype) + ", out " +
                    name_of(out.dtype));
    if (table.shape.size() != 2) invalid("gather: the table must have rank 2 ([R, C])");
    const auto columns = static_cast<std::uint64_t>(table.shape[1]);
    if (out.shape.empty() || static_cast<std::uint64_t>(out.shape.back()) != columns ||
        out.elements() != index.elements() * columns)
        invalid("gather: out must be [N, C] for N indices and a table of C columns");
}

MatmulExtents matmul_extents(const Request& request) {
    const TensorRef& a = request.inputs[0];
    const std::size_t rank = a.shape.size();
    return {static_cast<std::uint64_t>(rank == 3 ? a.shape[0] : 1), static_cast<std::uint64_t>(a.shape[rank - 2]),
            static_cast<std::uint64_t>(a.shape[rank - 1]), static_cast<std::uint64_t>(request.inputs[1].shape[rank - 1])};
}

AttentionParameters attention_parameters(const Request& request) {
    const TensorRef& q = request.inputs[0];
    const auto head_dim = static_cast<std::uint64_t>(q.shape[1]);
    return {static_cast<std::uint64_t>(q.shape[0]), static_cast<std::uint64_t>(request.inputs[1].shape[0]), head_dim,
            request.has("scale") ? static_cast<float>(request.number("scale", 1.0))
                                 : 1.0f / std::sqrt(static_cast<float>(head_dim)),
            request.flag("causal", false)};
}

float eps_of(const Request& request) { return static_cast<float>(request.number("eps", 1.0e-5)); }

std::uint64_t row_local_size(std::uint64_t full, std::uint64_t length) {
    if (length >= full || full <= kMinRowLocalSize) return full;
    return std::max(kMinRowLocalSize, std::bit_ceil(length));
}

}  // namespace kcs::device
