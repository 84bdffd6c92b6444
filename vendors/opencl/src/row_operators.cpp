// The operators that reduce: matmul, reduce_sum, reduce_max, softmax,
// layernorm, rmsnorm and attention (kernels/matmul.cl, reduce.cl,
// softmax.cl, norms.cl, attention.cl). Every reduction accumulates in f32.
#include <algorithm>
#include <cmath>

#include "op_checks.hpp"
#include "operators.hpp"

namespace kcs::opencl {

namespace {

constexpr std::size_t kMatmulTile = 4;  // TILE in kernels/matmul.cl: work-items per side of a work-group
constexpr std::size_t kMatmulRows = 4;  // ROWS: rows per work-item
constexpr std::size_t kMatmulColumns = 16;  // COLUMNS: neighbouring columns per work-item

// ---- matmul: A [B?, M, K] x B [B?, K, N] -> C [B?, M, N] -------------------

void run_matmul(Execution& execution, const Request& request) {
    const TensorRef& a = request.inputs[0];
    const TensorRef& b = request.inputs[1];
    const TensorRef& c = request.outputs[0];
    const auto [batch_count, m_count, k_count, n_count] = matmul_extents(request);
    const auto batch = static_cast<std::size_t>(batch_count);
    const cl_ulong m = m_count, k = k_count, n = n_count;
    cl_kernel kernel = execution.kernel(Family::matmul, kernel_name("matmul", a.dtype, c.dtype));
    execution.set_args(kernel, execution.bind(a, "A"), execution.bind(b, "B"), execution.bind(c, "C"), m, k, n);
    // One work-group per TILE * ROWS rows and TILE * COLUMNS columns.
    const std::size_t column_groups = round_up(n, kMatmulTile * kMatmulColumns) / (kMatmulTile * kMatmulColumns);
    const std::size_t row_groups = round_up(m, kMatmulTile * kMatmulRows) / (kMatmulTile * kMatmulRows);
    execution.launch(kernel, 3, {column_groups * kMatmulTile, row_groups * kMatmulTile, batch},
                     {kMatmulTile, kMatmulTile, 1});
}

// ---- one work-group per row: reduce_sum, reduce_max, softmax ---------------

// The kernel's reduction local size, or less for a row shorter than it
// (device::row_local_size: the same bits).
std::size_t row_local_size(const Execution& execution, cl_kernel kernel, std::uint64_t length) {
    return device::row_local_size(execution.reduction_local_size(kernel), length);
}

// The row kernels run in lanes (kernels/common.cl): each
// work-item carries kLanes virtual work-items of the reduction's local
// size, so a work-group has that size over kLanes work-items.
constexpr std::size_t kLanes = 16;  // LANES in kernels/common.cl

std::size_t lanes_work_items(const Execution& execution, cl_kernel kernel, std::uint64_t length) {
    return std::max(kLanes, row_local_size(execution, kernel, length)) / kLanes;
}

// One work-group per row of `rows`, its work-items in lanes, after `set_args`.
void launch_lanes(Execution& execution, cl_kernel kernel, const Rows& rows, std::size_t work_items) {
    execution.launch(kernel, 1, {static_cast<std::size_t>(rows.count) * work_items, 1, 1}, {work_items, 1, 1});
}

// Launches `kernel(x, y, length, scratch)` with one work-group per row.
void run_rows(Execution& execution, Family family, const char* name, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(family, kernel_name(name, x.dtype, y.dtype));
    const std::size_t work_items = lanes_work_items(execution, kernel, rows.length);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{rows.length},
                       LocalFloats{work_items * kLanes});
    launch_lanes(execution, kernel, rows, work_items);
}

void run_reduce_sum(Execution& execution, const Request& request) {
    run_rows(execution, Family::reduce, "reduce_sum", request);
}
void run_reduce_max(Execution& execution, const Request& request) {
    run_rows(execution, Family::reduce, "reduce_max", request);
}

void run_softmax(Execution& execution, const Request& request) {
    run_rows(execution, Family::softmax, "softmax", request);
}

// ---- the norms ------------------------------------------------------------

void run_layernorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(Family::norms, kernel_name("layernorm", x.dtype, y.dtype));
    const std::size_t work_items = lanes_work_items(execution, kernel, rows.length);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(request.inputs[1], "gamma"),
                       execution.bind(request.inputs[2], "beta"), execution.bind(y, "y"), cl_ulong{rows.length},
                       cl_float{eps_of(request)}, LocalFloats{work_items * kLanes});
    launch_lanes(execution, kernel, rows, work_items);
}

void run_rmsnorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    cl_kernel kernel = execution.kernel(Family::norms, kernel_name("rmsnorm", x.dtype, y.dtype));
    const std::size_t work_items = lanes_work_items(execution, kernel, rows.length);
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(request.inputs[1], "gamma"),
                       execution.bind(y, "y"), cl_ulong{rows.length}, cl_float{eps_of(request)},
                       LocalFloats{work_items * kLanes});
    launch_lanes(execution, kernel, rows, work_items);
}

// ---- attention: Q [S, D], K [T, D], V [T, D] -> O [S, D] ---------------------

void run_attention(Execution& execution, const Request& request) {
    const TensorRef& q = request.inputs[0];
    const TensorRef& o = request.outputs[0];
    const AttentionParameters at = attention_parameters(request);
    const cl_ulong keys = at.keys, head_dim = at.head_dim;
    const cl_float scale = at.scale;
    const cl_int causal = at.causal ? 1 : 0;
    cl_kernel kernel = execution.kernel(Family::attention, kernel_name("attention", q.dtype, o.dtype));
    const std::size_t work_items = lanes_work_items(execution, kernel, keys);
    // Bind the tensors before asking for scratch: a bad tensor is refused
    // before anything is allocated.
    const BoundTensor bq = execution.bind(q, "Q"), bk = execution.bind(request.inputs[1], "K"),
                      bv = execution.bind(request.inputs[2], "V"), bo = execution.bind(o, "O");
    cl_mem scores = execution.scratch(at.queries * keys * sizeof(cl_float));
    execution.set_args(kernel, bq, bk, bv, bo, scores, keys, head_dim, scale, causal, LocalFloats{work_items * kLanes});
    execution.launch(kernel, 1, {static_cast<std::size_t>(at.queries) * work_items, 1, 1}, {work_items, 1, 1});
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
