// The operators that reduce: matmul, reduce_sum, reduce_max, softmax,
// layernorm, rmsnorm and attention (kernels/matmul.cl, reduce.cl,
// softmax.cl, norms.cl, attention.cl). Every reduction accumulates in f32.
#include <cmath>

#include "op_checks.hpp"
#include "operators.hpp"

namespace kcs::opencl {

namespace {

constexpr std::size_t kMatmulTile = 16;  // TILE in kernels/matmul.cl
constexpr std::size_t kMatmulWidth = 4;  // WIDTH: columns per work-item

// ---- matmul: A [B?, M, K] x B [B?, K, N] -> C [B?, M, N] -------------------

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

void run_matmul(Execution& execution, const Request& request) {
    const TensorRef& a = request.inputs[0];
    const TensorRef& b = request.inputs[1];
    const TensorRef& c = request.outputs[0];
    const std::size_t rank = a.shape.size();
    const auto batch = static_cast<std::size_t>(rank == 3 ? a.shape[0] : 1);
    const auto m = static_cast<cl_ulong>(a.shape[rank - 2]);
    const auto k = static_cast<cl_ulong>(a.shape[rank - 1]);
    const auto n = static_cast<cl_ulong>(b.shape[rank - 1]);
    cl_kernel kernel = execution.kernel(Family::matmul, kernel_name("matmul", a.dtype, c.dtype));
    execution.set_args(kernel, execution.bind(a, "A"), execution.bind(b, "B"), execution.bind(c, "C"), m, k, n);
    // One work-group per TILE rows and TILE * WIDTH columns.
    const std::size_t column_groups = round_up(n, kMatmulTile * kMatmulWidth) / (kMatmulTile * kMatmulWidth);
    execution.launch(kernel, 3, {column_groups * kMatmulTile, round_up(m, kMatmulTile), batch},
                     {kMatmulTile, kMatmulTile, 1});
}

// ---- one work-group per row: reduce_sum, reduce_max, softmax ---------------

// Launches `kernel(x, y, length, scratch)` with one work-group per row.
void run_rows(Execution& execution, Family family, const char* name, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(family, kernel_name(name, x.dtype, y.dtype));
    const std::size_t local = execution.reduction_local_size(kernel);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{rows.length},
                       LocalFloats{local});
    execution.launch(kernel, 1, {static_cast<std::size_t>(rows.count) * local, 1, 1}, {local, 1, 1});
}

void check_reduction(const Request& request, std::span<const DtypeConfig> configs) {
    check_counts(request, 1, 1);
    check_dtypes(request, configs);
    check_attributes(request, {});
    check_no_function(request);
    check_row_operand(request, request.inputs[0]);
    check_reduced_output(request, request.outputs[0], request.inputs[0]);
}

void check_reduce_sum(const Request& request) { check_reduction(request, kAccumulatingConfigs); }
void check_reduce_max(const Request& request) { check_reduction(request, kSameDtypeConfigs); }
void run_reduce_sum(Execution& execution, const Request& request) {
    run_rows(execution, Family::reduce, "reduce_sum", request);
}
void run_reduce_max(Execution& execution, const Request& request) {
    run_rows(execution, Family::reduce, "reduce_max", request);
}

void check_softmax(const Request& request) {
    check_counts(request, 1, 1);
    check_dtypes(request, kAccumulatingConfigs);
    check_attributes(request, {});
    check_no_function(request);
    check_row_operand(request, request.inputs[0]);
    check_same_shape(request, request.outputs[0], request.inputs[0]);
}

void run_softmax(Execution& execution, const Request& request) {
    run_rows(execution, Family::softmax, "softmax", request);
}

// ---- the norms ------------------------------------------------------------

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

void check_layernorm(const Request& request) { check_norm(request, true); }
void check_rmsnorm(const Request& request) { check_norm(request, false); }

// eps rounded to the f32 accumulator, as the operator files define it.
cl_float eps_of(const Request& request) { return static_cast<cl_float>(request.number("eps", 1.0e-5)); }

void run_layernorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(Family::norms, kernel_name("layernorm", x.dtype, y.dtype));
    const std::size_t local = execution.reduction_local_size(kernel);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(request.inputs[1], "gamma"),
                       execution.bind(request.inputs[2], "beta"), execution.bind(y, "y"), cl_ulong{rows.length},
                       eps_of(request), LocalFloats{local});
    execution.launch(kernel, 1, {static_cast<std::size_t>(rows.count) * local, 1, 1}, {local, 1, 1});
}

void run_rmsnorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(Family::norms, kernel_name("rmsnorm", x.dtype, y.dtype));
    const std::size_t local = execution.reduction_local_size(kernel);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(request.inputs[1], "gamma"),
                       execution.bind(y, "y"), cl_ulong{rows.length}, eps_of(request), LocalFloats{local});
    execution.launch(kernel, 1, {static_cast<std::size_t>(rows.count) * local, 1, 1}, {local, 1, 1});
}

// ---- attention: Q [S, D], K [T, D], V [T, D] -> O [S, D] ---------------------

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

void run_attention(Execution& execution, const Request& request) {
    const TensorRef& q = request.inputs[0];
    const TensorRef& o = request.outputs[0];
    const auto queries = static_cast<std::uint64_t>(q.shape[0]);
    const auto keys = static_cast<cl_ulong>(request.inputs[1].shape[0]);
    const auto head_dim = static_cast<cl_ulong>(q.shape[1]);
    // The scale attribute rounded to f32, or 1/sqrt(D) in f32.
    const cl_float scale = request.has("scale") ? static_cast<cl_float>(request.number("scale", 1.0))
                                                : 1.0f / std::sqrt(static_cast<float>(head_dim));
    const cl_int causal = request.flag("causal", false) ? 1 : 0;
    cl_kernel kernel = execution.kernel(Family::attention, kernel_name("attention", q.dtype, o.dtype));
    const std::size_t local = execution.reduction_local_size(kernel);
    // Bind the tensors before asking for scratch: a bad tensor is refused
    // before anything is allocated.
    const BoundTensor bq = execution.bind(q, "Q"), bk = execution.bind(request.inputs[1], "K"),
                      bv = execution.bind(request.inputs[2], "V"), bo = execution.bind(o, "O");
    cl_mem scores = execution.scratch(queries * keys * sizeof(cl_float));
    execution.set_args(kernel, bq, bk, bv, bo, scores, keys, head_dim, scale, causal, LocalFloats{local});
    execution.launch(kernel, 1, {static_cast<std::size_t>(queries) * local, 1, 1}, {local, 1, 1});
}

}  // namespace

extern const Operator kMatmul{"matmul", check_matmul, run_matmul};
extern const Operator kReduceSum{"reduce_sum", check_reduce_sum, run_reduce_sum};
extern const Operator kReduceMax{"reduce_max", check_reduce_max, run_reduce_max};
extern const Operator kSoftmax{"softmax", check_softmax, run_softmax};
extern const Operator kLayernorm{"layernorm", check_layernorm, run_layernorm};
extern const Operator kRmsnorm{"rmsnorm", check_rmsnorm, run_rmsnorm};
extern const Operator kAttention{"attention", check_attention, run_attention};

}  // namespace kcs::opencl
