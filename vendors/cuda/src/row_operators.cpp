// The operators that reduce: matmul, reduce_sum, reduce_max, softmax,
// layernorm, rmsnorm and attention (kernels/matmul.cuh, reduce.cuh,
// softmax.cuh, norms.cuh, attention.cuh). Every reduction accumulates in f32.
#include <cstdint>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "operators.hpp"

namespace kcs::cuda {

namespace {

using device::Request;
using device::TensorRef;
using index_t = std::uint64_t;  // the kernels' index_t, unsigned long long

constexpr unsigned kMatmulTile = 16;  // kTile in kernels/matmul.cuh
constexpr unsigned kMatmulWidth = 4;  // kWidth: columns per thread
constexpr std::uint64_t kMaxGridYZ = 65535;

// ---- matmul: A [B?, M, K] x B [B?, K, N] -> C [B?, M, N] -------------------

// The operator's own checks, and the grid's: one block per 16 rows (y)
// and per batch (z), each at most 65535.
void check_matmul(const Request& request) {
    device::check_matmul(request);
    const auto extents = device::matmul_extents(request);
    if (extents.batch > kMaxGridYZ || (extents.m + kMatmulTile - 1) / kMatmulTile > kMaxGridYZ)
        device::unsupported("matmul: a batch of " + std::to_string(extents.batch) + " and M = " +
                            std::to_string(extents.m) + " need more than CUDA's 65535 blocks in y or z");
}

void run_matmul(Execution& execution, const Request& request) {
    const TensorRef& a = request.inputs[0];
    const TensorRef& c = request.outputs[0];
    const auto [batch, m, k, n] = device::matmul_extents(request);
    const cudaKernel_t kernel = execution.kernel(Family::matmul, name_expression("matmul", a.dtype, c.dtype));
    execution.launch(kernel, dim3(blocks_for(n, kMatmulTile * kMatmulWidth), blocks_for(m, kMatmulTile),
                                  static_cast<unsigned>(batch)),
                     dim3(kMatmulTile, kMatmulTile), 0, execution.bind(a, "A"),
                     execution.bind(request.inputs[1], "B"), execution.bind(c, "C"), index_t{m}, index_t{k},
                     index_t{n});
}

// ---- one block per row: reduce_sum, reduce_max, softmax, the norms ----------

// Launches `kernel(x, extra inputs..., y, length, more...)` with one block
// per row of x and a float of shared memory per thread.
template <typename... More>
void run_rows(Execution& execution, Family family, const char* name, const Request& request, const More&... more) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const device::Rows rows = device::rows_of(x);
    const cudaKernel_t kernel = execution.kernel(family, name_expression(name, x.dtype, y.dtype));
    const unsigned local = execution.reduction_local_size(kernel);
    execution.launch(kernel, dim3(blocks_for(rows.count, 1)), dim3(local), local * sizeof(float),
                     execution.bind(x, "x"), more..., execution.bind(y, "y"), index_t{rows.length});
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

void run_norm(Execution& execution, const Request& request, const char* name) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const device::Rows rows = device::rows_of(x);
    const cudaKernel_t kernel = execution.kernel(Family::norms, name_expression(name, x.dtype, y.dtype));
    const unsigned local = execution.reduction_local_size(kernel);
    const float eps = device::eps_of(request);
    const void* gamma = execution.bind(request.inputs[1], "gamma");
    const dim3 grid(blocks_for(rows.count, 1)), block(local);
    if (request.inputs.size() == 3)  // layernorm: x, gamma, beta
        execution.launch(kernel, grid, block, local * sizeof(float), execution.bind(x, "x"), gamma,
                         execution.bind(request.inputs[2], "beta"), execution.bind(y, "y"), index_t{rows.length}, eps);
    else
        execution.launch(kernel, grid, block, local * sizeof(float), execution.bind(x, "x"), gamma,
                         execution.bind(y, "y"), index_t{rows.length}, eps);
}

void run_layernorm(Execution& execution, const Request& request) { run_norm(execution, request, "layernorm"); }
void run_rmsnorm(Execution& execution, const Request& request) { run_norm(execution, request, "rmsnorm"); }

// ---- attention: Q [S, D], K [T, D], V [T, D] -> O [S, D] ---------------------

void run_attention(Execution& execution, const Request& request) {
    const TensorRef& q = request.inputs[0];
    const TensorRef& o = request.outputs[0];
    const device::AttentionParameters at = device::attention_parameters(request);
    const cudaKernel_t kernel = execution.kernel(Family::attention, name_expression("attention", q.dtype, o.dtype));
    const unsigned local = execution.reduction_local_size(kernel);
    // Bind the tensors before asking for scratch: a bad tensor is refused
    // before anything is allocated.
    const void* bq = execution.bind(q, "Q");
    const void* bk = execution.bind(request.inputs[1], "K");
    const void* bv = execution.bind(request.inputs[2], "V");
    const void* bo = execution.bind(o, "O");
    float* scores = execution.scratch(at.queries * at.keys * sizeof(float));
    execution.launch(kernel, dim3(blocks_for(at.queries, 1)), dim3(local), local * sizeof(float), bq, bk, bv, bo,
                     scores, index_t{at.keys}, index_t{at.head_dim}, at.scale, int{at.causal ? 1 : 0});
}

}  // namespace

extern const Operator kMatmul{"matmul", check_matmul, run_matmul};
extern const Operator kReduceSum{"reduce_sum", device::check_reduce_sum, run_reduce_sum};
extern const Operator kReduceMax{"reduce_max", device::check_reduce_max, run_reduce_max};
extern const Operator kSoftmax{"softmax", device::check_softmax, run_softmax};
extern const Operator kLayernorm{"layernorm", device::check_layernorm, run_layernorm};
extern const Operator kRmsnorm{"rmsnorm", device::check_rmsnorm, run_rmsnorm};
extern const Operator kAttention{"attention", device::check_attention, run_attention};

}  // namespace kcs::cuda
