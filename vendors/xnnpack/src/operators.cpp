#include "operators.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "adapter_failure.hpp"
#include "host_library.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"

namespace kcs::xnnpack {

const char* const kF16MatmulReason =
    "XNNPACK's f16 fully connected rounds its running sum to f16 after every multiply-add "
    "(src/f16-gemm/gen/*-minmax-avx2-broadcast.c: _mm256_cvtps_ph after each _mm256_fmadd_ps), "
    "and the catalog's f16 matmul accumulates in f32 (f16_matmul=offer offers it anyway)";

namespace {

using device::Request;
using device::TensorRef;

constexpr float kInf = INFINITY;

struct Deleter {
    void operator()(xnn_operator_t op) const { xnn_delete_operator(op); }
};
using Operator = std::unique_ptr<xnn_operator, Deleter>;

enum class Kind { fully_connected, softmax, sigmoid, add, multiply, maximum, convert };

// One call as XNNPACK computes it. Fully connected: `rows` M rows of
// `channels` K inputs to `outputs` N outputs, once per batch index;
// softmax: `rows` rows of `channels`; the elementwise kinds: `channels`
// elements in one row.
struct Plan {
    Kind kind = Kind::fully_connected;
    Dtype input = Dtype::f32, output = Dtype::f32;
    std::string label;     // "matmul f32 x f32 -> f32", for messages
    std::string function;  // XNNPACK's create function, for messages
    std::uint64_t batch = 1, rows = 1, channels = 0, outputs = 0;
    bool empty = false;  // the output has no elements: nothing to run
};

std::string suffix(Dtype dtype) { return dtype == Dtype::f16 ? "f16" : "f32"; }

void plan_matmul(const Request& request, const Settings& settings, Plan& plan) {
    device::check_matmul(request);
    const Dtype in = request.inputs[0].dtype, out = request.outputs[0].dtype;
    if (in == Dtype::f16 && out == Dtype::f16 && !settings.f16_matmul)
        device::unsupported(plan.label + ": " + kF16MatmulReason);
    if (!((in == Dtype::f32 && out == Dtype::f32) || (in == Dtype::f16 && out == Dtype::f16)))
        device::unsupported(plan.label +
                            ": XNNPACK's fully connected reads and writes one dtype, f32 or f16 "
                            "(xnn_create_fully_connected_nc_f32, _f16); it has no bf16 and no f16 -> f32");
    const device::MatmulExtents e = device::matmul_extents(request);
    plan.kind = Kind::fully_connected;
    plan.function = "xnn_create_fully_connected_nc_" + suffix(in);
    plan.batch = e.batch, plan.rows = e.m, plan.channels = e.k, plan.outputs = e.n;
}

void plan_softmax(const Request& request, Plan& plan) {
    device::check_softmax(request);
    if (request.inputs[0].dtype != Dtype::f32 || request.outputs[0].dtype != Dtype::f32)
        device::unsupported(plan.label + ": XNNPACK's softmax is f32 -> f32 alone (xnn_create_softmax_nc_f32)");
    const device::Rows rows = device::rows_of(request.inputs[0]);
    plan.kind = Kind::softmax;
    plan.function = "xnn_create_softmax_nc_f32";
    plan.rows = rows.count, plan.channels = rows.length;
}

void plan_unary(const Request& request, Plan& plan) {
    device::check_unary(request);
    // xnnpack.h of this version: f32 sigmoid, elu, square root, square, abs,
    // negate, hardswish, leaky relu and rounding; tanh for qs8 alone; no
    // exp, log, erf, gelu or reciprocal square root.
    if (request.function != "sigmoid")
        device::unsupported(plan.label + ": XNNPACK's operator API has no " + request.function + " operator" +
                            (request.function == "tanh" ? " on floats (xnn_create_tanh_nc_qs8 alone)" : ""));
    if (request.inputs[0].dtype != Dtype::f32)
        device::unsupported(plan.label + ": XNNPACK's sigmoid is f32 alone (xnn_create_sigmoid_nc_f32)");
    plan.kind = Kind::sigmoid;
    plan.function = "xnn_create_sigmoid_nc_f32";
    plan.channels = request.inputs[0].elements();
}

void plan_elementwise(const Request& request, Plan& plan) {
    device::check_elementwise(request);
    const Dtype dtype = request.outputs[0].dtype;
    if (request.function == "mul_add")
        device::unsupported(plan.label + ": XNNPACK's operator API has no multiply-add operator");
    const bool f16_too = request.function != "maximum";  // xnn_create_maximum_nd_f32 has no f16 sibling
    if (dtype != Dtype::f32 && !(dtype == Dtype::f16 && f16_too))
        device::unsupported(plan.label + ": XNNPACK's " + request.function + " is " +
                            (f16_too ? "f32 and f16" : "f32 alone") + " in this version");
    plan.kind = request.function == "add" ? Kind::add : request.function == "mul" ? Kind::multiply : Kind::maximum;
    plan.function = std::string("xnn_create_") +
                    (plan.kind == Kind::add        ? "add"
                     : plan.kind == Kind::multiply ? "multiply"
                                                   : "maximum") +
                    "_nd_" + suffix(dtype);
    plan.channels = request.outputs[0].elements();
}

void plan_cast(const Request& request, Plan& plan) {
    device::check_cast(request);
    const Dtype from = request.inputs[0].dtype, to = request.outputs[0].dtype;
    if (from == Dtype::bf16 || to == Dtype::bf16)
        device::unsupported(plan.label +
                            ": XNNPACK converts f32 <-> f16 alone (xnn_create_convert_nc_f32_f16, "
                            "_f16_f32); it has no bf16");
    plan.kind = Kind::convert;
    plan.function = "xnn_create_convert_nc_" + suffix(from) + "_" + suffix(to);
    plan.channels = request.inputs[0].elements();
}

Plan plan_of(const Request& request, const Settings& settings) {
    using Planner = void (*)(const Request&, const Settings&, Plan&);
    static const std::unordered_map<std::string, Planner> kPlanners{
        {"matmul", plan_matmul},
        {"softmax", [](const Request& r, const Settings&, Plan& p) { plan_softmax(r, p); }},
        {"unary", [](const Request& r, const Settings&, Plan& p) { plan_unary(r, p); }},
        {"elementwise", [](const Request& r, const Settings&, Plan& p) { plan_elementwise(r, p); }},
        {"cast", [](const Request& r, const Settings&, Plan& p) { plan_cast(r, p); }}};
    const auto planner = kPlanners.find(request.name);
    if (planner == kPlanners.end())
        device::unsupported(request.name + ": XNNPACK's operator API has no operator the adapter maps it to");
    if (request.inputs.empty() || request.outputs.empty())
        device::invalid(request.name + ": a call needs at least one input and one output");
    Plan plan;
    plan.label = device::label_of(request);
    plan.input = request.inputs[0].dtype, plan.output = request.outputs[0].dtype;
    planner->second(request, settings, plan);
    device::check_contiguous(request);
    plan.empty = request.outputs[0].elements() == 0;
    return plan;
}

[[noreturn]] void refused(const Plan& plan, xnn_status status) {
    std::string what = plan.label + ": " + plan.function + " returns " + status_name(status);
    if (plan.kind == Kind::fully_connected)
        what += " for " + std::to_string(plan.channels) + " input and " + std::to_string(plan.outputs) +
                " output channels (K and N)";
    else
        what += " for " + std::to_string(plan.channels) + " channels";
    device::unsupported(what);
}

// The operator of `plan`; a fully connected one packs `weights` (B, [K, N]).
Operator create(const Plan& plan, const void* weights) {
    const std::size_t k = plan.channels, n = plan.outputs, c = plan.channels;
    const bool f16 = plan.input == Dtype::f16;
    xnn_operator_t op = nullptr;
    xnn_status status = xnn_status_success;
    switch (plan.kind) {
        case Kind::fully_connected:
            // XNN_FLAG_TRANSPOSE_WEIGHTS: the kernel is [input channels,
            // output channels], B as KCS lays it out; the default is W [N, K].
            status = f16 ? xnn_create_fully_connected_nc_f16(k, n, k, n, weights, nullptr, -kInf, kInf,
                                                             XNN_FLAG_TRANSPOSE_WEIGHTS, &op)
                         : xnn_create_fully_connected_nc_f32(k, n, k, n, static_cast<const float*>(weights), nullptr,
                                                             -kInf, kInf, XNN_FLAG_TRANSPOSE_WEIGHTS, &op);
            break;
        case Kind::softmax: status = xnn_create_softmax_nc_f32(c, c, c, 0, &op); break;
        case Kind::sigmoid: status = xnn_create_sigmoid_nc_f32(c, c, c, 0, &op); break;
        case Kind::add:
            status = f16 ? xnn_create_add_nd_f16(-kInf, kInf, 0, &op) : xnn_create_add_nd_f32(-kInf, kInf, 0, &op);
            break;
        case Kind::multiply:
            status =
                f16 ? xnn_create_multiply_nd_f16(-kInf, kInf, 0, &op) : xnn_create_multiply_nd_f32(-kInf, kInf, 0, &op);
            break;
        case Kind::maximum: status = xnn_create_maximum_nd_f32(0, &op); break;
        case Kind::convert:
            status =
                f16 ? xnn_create_convert_nc_f16_f32(c, c, c, 0, &op) : xnn_create_convert_nc_f32_f16(c, c, c, 0, &op);
            break;
    }
    Operator owned(op);
    if (status != xnn_status_success) refused(plan, status);
    return owned;
}

void check_status(const Plan& plan, const char* step, xnn_status status) {
    if (status == xnn_status_success) return;
    device::fail(status == xnn_status_out_of_memory ? KCS_OUT_OF_MEMORY : KCS_DEVICE_ERROR,
                 plan.label + ": XNNPACK's " + step + " returns " + status_name(status));
}

// Sets up `op` on the tensors (x and y; a second input `b` for the binary
// kinds) and runs it.
void setup_and_run(const Plan& plan, xnn_operator_t op, const void* x, const void* b, void* y, pthreadpool_t pool) {
    const bool f16 = plan.input == Dtype::f16;
    const auto* xf = static_cast<const float*>(x);
    const auto* bf = static_cast<const float*>(b);
    auto* yf = static_cast<float*>(y);
    const std::size_t shape[1] = {plan.channels};
    xnn_status status = xnn_status_success;
    switch (plan.kind) {
        case Kind::fully_connected:
            status = f16 ? xnn_setup_fully_connected_nc_f16(op, plan.rows, x, y, pool)
                         : xnn_setup_fully_connected_nc_f32(op, plan.rows, xf, yf, pool);
            break;
        case Kind::softmax: status = xnn_setup_softmax_nc_f32(op, plan.rows, xf, yf, pool); break;
        case Kind::sigmoid: status = xnn_setup_sigmoid_nc_f32(op, 1, xf, yf, pool); break;
        case Kind::add:
            status = f16 ? xnn_setup_add_nd_f16(op, 1, shape, 1, shape, x, b, y, pool)
                         : xnn_setup_add_nd_f32(op, 1, shape, 1, shape, xf, bf, yf, pool);
            break;
        case Kind::multiply:
            status = f16 ? xnn_setup_multiply_nd_f16(op, 1, shape, 1, shape, x, b, y, pool)
                         : xnn_setup_multiply_nd_f32(op, 1, shape, 1, shape, xf, bf, yf, pool);
            break;
        case Kind::maximum: status = xnn_setup_maximum_nd_f32(op, 1, shape, 1, shape, xf, bf, yf, pool); break;
        case Kind::convert:
            status = f16 ? xnn_setup_convert_nc_f16_f32(op, 1, x, yf, pool)
                         : xnn_setup_convert_nc_f32_f16(op, 1, xf, y, pool);
            break;
    }
    check_status(plan, "setup", status);
    check_status(plan, "xnn_run_operator", xnn_run_operator(op, pool));
}

}  // namespace

void check_offered(const Request& request, const Settings& settings) {
    const Plan plan = plan_of(request, settings);
    if (plan.empty) return;
    // A fully connected operator packs its weights when it is created: zeros
    // here, so that XNNPACK judges the real K and N without the call's data.
    std::vector<std::uint32_t> zeros;
    if (plan.kind == Kind::fully_connected) zeros.assign(std::max<std::uint64_t>(plan.channels * plan.outputs, 1), 0);
    create(plan, zeros.data());
}

void compute(const Request& request, device::HostBuffers& buffers, const Settings& settings) {
    const Plan plan = plan_of(request, settings);
    if (plan.empty) return;
    const std::string& name = request.name;
    const std::byte* x = host::tensor_address(buffers, request.inputs[0], name + ": input 0");
    const std::byte* b =
        request.inputs.size() > 1 ? host::tensor_address(buffers, request.inputs[1], name + ": input 1") : nullptr;
    std::byte* y = host::tensor_address(buffers, request.outputs[0], name + ": output 0");
    if (plan.kind != Kind::fully_connected) {
        const Operator op = create(plan, nullptr);
        setup_and_run(plan, op.get(), x, b, y, settings.pool);
        return;
    }
    // One operator per batch index: each batch has its own B, which XNNPACK
    // packs when it creates the operator.
    const std::uint64_t size = device::size_of(plan.input);
    for (std::uint64_t i = 0; i < plan.batch; ++i) {
        const Operator op = create(plan, b + i * plan.channels * plan.outputs * size);
        setup_and_run(plan, op.get(), x + i * plan.rows * plan.channels * size, nullptr,
                      y + i * plan.rows * plan.outputs * size, settings.pool);
    }
}

std::string status_name(xnn_status status) {
    switch (status) {
        case xnn_status_success: return "xnn_status_success";
        case xnn_status_uninitialized: return "xnn_status_uninitialized";
        case xnn_status_invalid_parameter: return "xnn_status_invalid_parameter";
        case xnn_status_invalid_state: return "xnn_status_invalid_state";
        case xnn_status_unsupported_parameter: return "xnn_status_unsupported_parameter";
        case xnn_status_unsupported_hardware: return "xnn_status_unsupported_hardware";
        case xnn_status_out_of_memory: return "xnn_status_out_of_memory";
    }
    return "xnn_status " + std::to_string(static_cast<int>(status));
}

}  // namespace kcs::xnnpack
