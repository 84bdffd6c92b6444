// Every v1 operator as dispatches of the embedded modules (shaders/*.comp);
// the push constants follow each module's Params block. Every reduction
// accumulates in f32.
#include "operators.hpp"
#include "operator_table.hpp"

#include <algorithm>
#include <array>
#include <climits>

#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

constexpr std::uint64_t kMatmulBlock = 64;  // BLOCK in shaders/matmul.comp: rows and columns per work-group

void run_matmul(Execution& execution, const Request& request) {
    const TensorRef& a = request.inputs[0];
    const TensorRef& b = request.inputs[1];
    const TensorRef& c = request.outputs[0];
    const auto [batch, m, k, n] = matmul_extents(request);
    const Bound ba = execution.bind(a, "A"), bb = execution.bind(b, "B"), bc = execution.bind(c, "C");
    const VkPhysicalDeviceLimits& limits = execution.device().limits;
    const std::array<std::uint64_t, 3> groups{ceil_div(n, kMatmulBlock), ceil_div(m, kMatmulBlock), batch};
    for (std::size_t axis = 0; axis < 3; ++axis)
        if (groups[axis] > limits.maxComputeWorkGroupCount[axis])
            unsupported("matmul: " + shape_text(c.shape) + " needs more work-groups than the device dispatches");
    execution.dispatch(kernel_name("matmul", a.dtype, c.dtype), {ba, bb, bc},
                       {ba.at, bb.at, bc.at, word(m), word(k), word(n)}, 0,
                       {static_cast<std::uint32_t>(groups[0]), static_cast<std::uint32_t>(groups[1]),
                        static_cast<std::uint32_t>(groups[2])});
}

// The reduction local size, or less for a row shorter than it
// (device::row_local_size: the same bits).
std::uint32_t row_local_size(const Execution& execution, std::uint64_t length) {
    return static_cast<std::uint32_t>(device::row_local_size(execution.reduction_local_size(), length));
}

// One work-group per row of `length` elements; `rows` is the module's last
// push constant.
void dispatch_rows(Execution& execution, const std::string& shader, const std::vector<Bound>& tensors, Push push,
                   std::uint64_t rows, std::uint64_t length) {
    push.push_back(word(rows));
    execution.dispatch_linear(shader, tensors, push, row_local_size(execution, length), rows);
}

void run_row_operator(Execution& execution, const Request& request, const char* base) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    const Bound bx = execution.bind(x, "x"), by = execution.bind(y, "y");
    dispatch_rows(execution, kernel_name(base, x.dtype, y.dtype), {bx, by}, {bx.at, by.at, word(rows.length)}, rows.count,
                  rows.length);
}

void run_reduce_sum(Execution& execution, const Request& request) { run_row_operator(execution, request, "reduce_sum"); }
void run_reduce_max(Execution& execution, const Request& request) { run_row_operator(execution, request, "reduce_max"); }
void run_softmax(Execution& execution, const Request& request) { run_row_operator(execution, request, "softmax"); }

void run_layernorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    const Bound bx = execution.bind(x, "x"), gamma = execution.bind(request.inputs[1], "gamma"),
                beta = execution.bind(request.inputs[2], "beta"), by = execution.bind(y, "y");
    dispatch_rows(execution, kernel_name("layernorm", x.dtype, y.dtype), {bx, gamma, beta, by},
                  {bx.at, gamma.at, beta.at, by.at, word(rows.length), word(eps_of(request))}, rows.count, rows.length);
}

void run_rmsnorm(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Rows rows = rows_of(x);
    const Bound bx = execution.bind(x, "x"), gamma = execution.bind(request.inputs[1], "gamma"),
                by = execution.bind(y, "y");
    dispatch_rows(execution, kernel_name("rmsnorm", x.dtype, y.dtype), {bx, gamma, by},
                  {bx.at, gamma.at, by.at, word(rows.length), word(eps_of(request))}, rows.count, rows.length);
}

// lavapipe ends an invocation's loops after 65535 iterations in all
// (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS) and carries on: the weighted sum,
// keys in order inside the loop over an invocation's head columns, would
// silently drop the keys past it. The count takes in the invocation's other
// loops too (measured on Mesa 22.3: with 16 head columns the last of 64150
// keys was dropped, of 64128 kept), so attention keeps the weighted sum to
// half the limit, and the dot products and exponentials to the other half
// less kLavapipeOtherLoops for the trees and the rest.
constexpr std::uint64_t kLavapipeKeyIterations = 65535 / 2 + 1;  // 32768
constexpr std::uint64_t kLavapipeOtherLoops = 256;
constexpr std::uint64_t kAttentionColumns = 4;  // COLUMNS in shaders/attention.comp
constexpr std::uint64_t kAttentionKeys = 4;     // KEYS in shaders/attention.comp

bool is_lavapipe(const DeviceDescription& device) { return device.driver_name.find("llvmpipe") != std::string::npos; }

// An invocation's iterations of attention.comp's loops on lavapipe: the
// weighted sums' (every key, per pass over its head columns) and the dot
// products' and exponentials' (head_dim per block of KEYS of its keys and
// per key left over; one per key).
struct AttentionIterations {
    std::uint64_t weighted;
    std::uint64_t scores;
};
AttentionIterations attention_iterations(const AttentionParameters& at, std::uint64_t local_size) {
    const std::uint64_t own_keys = ceil_div(at.keys, local_size);
    return {ceil_div(at.head_dim, kAttentionColumns * local_size) * at.keys,
            (own_keys / kAttentionKeys + own_keys % kAttentionKeys) * at.head_dim + own_keys};
}

void run_attention(Execution& execution, const Request& request) {
    const TensorRef& q = request.inputs[0];
    const TensorRef& o = request.outputs[0];
    const AttentionParameters at = attention_parameters(request);
    const AttentionIterations loops = attention_iterations(at, row_local_size(execution, at.keys));
    if (is_lavapipe(execution.device()) &&
        (loops.weighted > kLavapipeKeyIterations || loops.scores > kLavapipeKeyIterations - kLavapipeOtherLoops))
        unsupported("attention: " + std::to_string(at.keys) + " keys of head dimension " + std::to_string(at.head_dim) +
                    " exceed lavapipe's loop limit (" + std::to_string(kLavapipeKeyIterations) +
                    " keys per invocation in the weighted sums, " +
                    std::to_string(kLavapipeKeyIterations - kLavapipeOtherLoops) +
                    " iterations for the scores; past it lavapipe silently drops the rest)");
    // Bind the tensors before asking for scratch: a bad tensor is refused
    // before anything is allocated.
    const Bound bq = execution.bind(q, "Q"), bk = execution.bind(request.inputs[1], "K"),
                bv = execution.bind(request.inputs[2], "V"), bo = execution.bind(o, "O");
    const Bound scores = execution.bind(execution.scratch(at.queries * at.keys * sizeof(float)));
    dispatch_rows(execution, kernel_name("attention", q.dtype, o.dtype), {bq, bk, bv, bo, scores},
                  {bq.at, bk.at, bv.at, bo.at, word(at.keys), word(at.head_dim), word(at.scale),
                   std::uint32_t{at.causal}},
                  at.queries, at.keys);
}

// One invocation per element of `count`.
void dispatch_elements(Execution& execution, const std::string& shader, const std::vector<Bound>& tensors, Push push,
                       std::uint64_t count) {
    push.push_back(word(count));
    const std::uint32_t local = execution.pointwise_local_size();
    execution.dispatch_linear(shader, tensors, push, local, ceil_div(count, local));
}

void run_unary(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Bound bx = execution.bind(x, "x"), by = execution.bind(y, "y");
    dispatch_elements(execution, kernel_name("unary_" + request.function, x.dtype, y.dtype), {bx, by}, {bx.at, by.at},
                      y.elements());
}

// f16 arithmetic where the device has shaderFloat16, else f32 and one rounding.
void run_elementwise(Execution& execution, const Request& request) {
    const TensorRef& out = request.outputs[0];
    std::string shader = kernel_name("elementwise_" + request.function, out.dtype, out.dtype);
    if (out.dtype == Dtype::f16 && execution.device().float16) shader += "_native";
    const bool ternary = request.function == "mul_add";
    std::vector<Bound> tensors{execution.bind(request.inputs[0], "a"), execution.bind(request.inputs[1], "b")};
    if (ternary) tensors.push_back(execution.bind(request.inputs[2], "c"));
    tensors.push_back(execution.bind(out, "out"));
    Push push;
    for (const Bound& t : tensors) push.push_back(t.at);
    dispatch_elements(execution, shader, tensors, push, out.elements());
}

void run_cast(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const Bound bx = execution.bind(x, "x"), by = execution.bind(y, "y");
    dispatch_elements(execution, kernel_name("cast", x.dtype, y.dtype), {bx, by}, {bx.at, by.at}, y.elements());
}

// The module records the smallest out-of-range position (INT_MAX: none);
// the adapter raises KCS_OUT_OF_RANGE for it, as its claim oob_policy: raise
// promises.
void run_gather(Execution& execution, const Request& request) {
    const TensorRef& table = request.inputs[0];
    const TensorRef& index = request.inputs[1];
    const TensorRef& out = request.outputs[0];
    const std::uint64_t positions = index.elements();
    std::string shader = table.dtype == Dtype::f32 ? "gather_u32" : "gather_u16";
    shader.append(index.dtype == Dtype::i32 ? "_i32" : "_i64");
    const Bound bt = execution.bind(table, "table"), bi = execution.bind(index, "index"), bo = execution.bind(out, "out");
    if (positions == 0) return;
    const Allocation& flag = execution.flag();
    execution.fill(flag, INT_MAX);
    // One invocation per output element (one per position where rows are empty).
    const auto columns = static_cast<std::uint64_t>(table.shape[1]);
    const std::uint64_t count = positions * std::max<std::uint64_t>(columns, 1);
    if (count > UINT32_MAX) unsupported("gather: " + shape_text(out.shape) + " has more elements than a uint indexes");
    dispatch_elements(execution, shader, {bt, bi, bo, execution.bind(flag)},
                      {bt.at, bi.at, bo.at, word(static_cast<std::uint64_t>(table.shape[0])), word(columns),
                       word(positions)},
                      count);
    execution.finish();
    const std::int32_t bad = execution.read_flag();
    if (bad != INT_MAX)
        fail(KCS_OUT_OF_RANGE, "gather: index[" + std::to_string(bad) + "] is outside [0, " +
                                   std::to_string(table.shape[0]) + ") (the policy is raise)");
}

constexpr std::array<Operator, 11> kOperators{{
    {"matmul", check_matmul, run_matmul},
    {"reduce_sum", check_reduce_sum, run_reduce_sum},
    {"reduce_max", check_reduce_max, run_reduce_max},
    {"softmax", check_softmax, run_softmax},
    {"layernorm", check_layernorm, run_layernorm},
    {"rmsnorm", check_rmsnorm, run_rmsnorm},
    {"attention", check_attention, run_attention},
    {"unary", check_unary, run_unary},
    {"elementwise", check_elementwise, run_elementwise},
    {"cast", check_cast, run_cast},
    {"gather", check_gather, run_gather},
}};

}  // namespace

const Operator& find_operator(std::string_view name) { return device::find_named_operator(kOperators, name); }

void check_device(const Request& request, const DeviceDescription& device) {
    if (device.storage_16bit) return;
    for (const auto* list : {&request.inputs, &request.outputs})
        for (const TensorRef& t : *list)
            if (t.dtype == Dtype::f16 || t.dtype == Dtype::bf16)
                unsupported(request.name + ": " + name_of(t.dtype) +
                            " tensors need storageBuffer16BitAccess, which the device lacks");
}

}  // namespace kcs::vulkan
