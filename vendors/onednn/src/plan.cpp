#include "plan.hpp"

#include <unordered_map>
#include <utility>

#include "adapter_failure.hpp"
#include "host_library.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "options.hpp"

namespace kcs::onednn {

namespace {

using device::Request;
using device::TensorRef;
using dnnl::algorithm;
using dnnl::memory;
using dnnl::prop_kind;

memory::data_type type_of(Dtype dtype) {
    switch (dtype) {
        case Dtype::f32: return memory::data_type::f32;
        case Dtype::f16: return memory::data_type::f16;
        case Dtype::bf16: return memory::data_type::bf16;
        default:
            device::unsupported(std::string("the adapter maps f32, f16 and bf16 to oneDNN, not ") + name_of(dtype));
    }
}

// A dense row-major memory of `shape`, as the request's contiguous tensors are.
memory::desc plain(const memory::dims& shape, Dtype dtype) {
    static constexpr memory::format_tag kTags[] = {memory::format_tag::a, memory::format_tag::ab,
                                                   memory::format_tag::abc};
    return memory::desc(shape, type_of(dtype), kTags[shape.size() - 1]);
}
memory::desc plain(const TensorRef& tensor) { return plain(tensor.shape, tensor.dtype); }
memory::desc flat(const TensorRef& tensor) {
    return plain({static_cast<memory::dim>(tensor.elements())}, tensor.dtype);
}
memory::desc rows(const TensorRef& tensor, std::int64_t columns) {
    const device::Rows r = device::rows_of(tensor);
    return plain({static_cast<memory::dim>(r.count), columns}, tensor.dtype);
}
std::int64_t row_length(const TensorRef& tensor) { return static_cast<std::int64_t>(device::rows_of(tensor).length); }

// The primitive descriptor `make` creates, or KCS_UNSUPPORTED with oneDNN's
// reason when oneDNN offers none for the configuration on this CPU.
template <class Make>
dnnl::primitive_desc_base offered(const std::string& label, Make&& make) {
    try {
        return make();
    } catch (const dnnl::error& e) {
        device::unsupported(label + ": oneDNN " + std::to_string(dnnl::version()->major) + "." +
                            std::to_string(dnnl::version()->minor) + " creates no primitive for it on this CPU " +
                            "(effective ISA " + isa_name(dnnl::get_effective_cpu_isa()) + "): " + e.what());
    }
}

Operand input(int arg, memory::desc desc, int index) { return {arg, std::move(desc), index}; }
Operand output(const Request& request, int arg, memory::desc desc) {
    return {arg, std::move(desc), static_cast<int>(request.inputs.size())};
}

void plan_matmul(const Request& request, const Context& context, Plan& plan) {
    device::check_matmul(request);
    if (device::matmul_extents(request).k == 0)
        device::unsupported("matmul with K = 0: oneDNN's matmul leaves C unwritten rather than zero");
    const memory::desc a = plain(request.inputs[0]), b = plain(request.inputs[1]), c = plain(request.outputs[0]);
    plan.steps.push_back({offered(plan.label, [&] {
                              return dnnl::matmul::primitive_desc(dnnl::matmul::desc(a, b, c), context.attr(),
                                                                  context.engine);
                          }),
                          {input(DNNL_ARG_SRC, a, 0), input(DNNL_ARG_WEIGHTS, b, 1),
                           output(request, DNNL_ARG_DST, c)}});
}

void plan_softmax(const Request& request, const Context& context, Plan& plan) {
    device::check_softmax(request);
    const std::int64_t n = row_length(request.inputs[0]);
    const memory::desc x = rows(request.inputs[0], n), y = rows(request.outputs[0], n);
    plan.steps.push_back({offered(plan.label, [&] {
                              using Softmax = dnnl::softmax_v2_forward;
                              return Softmax::primitive_desc(
                                  Softmax::desc(prop_kind::forward_inference, algorithm::softmax_accurate, x, y, 1),
                                  context.attr(), context.engine);
                          }),
                          {input(DNNL_ARG_SRC, x, 0), output(request, DNNL_ARG_DST, y)}});
}

// A step that widens input `index` (gamma or beta in f16 or bf16) exactly to
// f32 in a new scratch buffer, by oneDNN's reorder: its layer normalization
// reads the scale and shift in f32 alone. Returns that buffer as argument `arg`.
Operand widened(const Request& request, const Context& context, Plan& plan, int index, int arg) {
    const TensorRef& vector = request.inputs[static_cast<std::size_t>(index)];
    const memory::desc from = flat(vector), to = plain({static_cast<memory::dim>(vector.elements())}, Dtype::f32);
    const int scratch = static_cast<int>(plan.scratch_bytes.size());
    plan.scratch_bytes.push_back(vector.elements() * sizeof(float));
    plan.steps.push_back({offered(plan.label, [&] {
                              return dnnl::reorder::primitive_desc(context.engine, from, context.engine, to,
                                                                   context.attr());
                          }),
                          {input(DNNL_ARG_FROM, from, index), {DNNL_ARG_TO, to, -1, scratch}}});
    return {arg, to, -1, scratch};
}

void plan_layernorm(const Request& request, const Context& context, Plan& plan) {
    device::check_layernorm(request);
    const TensorRef& x = request.inputs[0];
    if (request.outputs[0].dtype != x.dtype)
        device::unsupported(plan.label + ": oneDNN 2.x's layer normalization writes its output in the input's dtype");
    const std::int64_t n = row_length(x);
    const memory::desc data = rows(x, n), y = rows(request.outputs[0], n);
    const memory::desc vector = plain({n}, Dtype::f32);
    Operand scale{DNNL_ARG_SCALE, vector, 1}, shift{DNNL_ARG_SHIFT, vector, 2};
    if (request.inputs[1].dtype != Dtype::f32) {
        scale = widened(request, context, plan, 1, DNNL_ARG_SCALE);
        shift = widened(request, context, plan, 2, DNNL_ARG_SHIFT);
    }
    const float eps = device::eps_of(request);
    plan.steps.push_back({offered(plan.label, [&] {
                              using Norm = dnnl::layer_normalization_forward;
                              const auto flags = dnnl::normalization_flags::use_scale |
                                                 dnnl::normalization_flags::use_shift;
                              return Norm::primitive_desc(Norm::desc(prop_kind::forward_inference, data, eps, flags),
                                                          context.attr(), context.engine);
                          }),
                          {input(DNNL_ARG_SRC, data, 0), scale, shift, output(request, DNNL_ARG_DST, y)}});
}

void plan_unary(const Request& request, const Context& context, Plan& plan) {
    device::check_unary(request);
    // oneDNN 2.6 has no erf of its own, and no reciprocal square root but
    // pow(x, -0.5), whose special values are pow's, not rsqrt's.
    static const std::unordered_map<std::string, algorithm> kAlgorithms{
        {"exp", algorithm::eltwise_exp},   {"log", algorithm::eltwise_log},
        {"tanh", algorithm::eltwise_tanh}, {"gelu", algorithm::eltwise_gelu_erf},
        {"sigmoid", algorithm::eltwise_logistic}};
    const auto found = kAlgorithms.find(request.function);
    if (found == kAlgorithms.end())
        device::unsupported("unary " + request.function + ": oneDNN 2.6 has no eltwise algorithm that computes it");
    const memory::desc x = flat(request.inputs[0]);
    plan.steps.push_back({offered(plan.label, [&] {
                              using Eltwise = dnnl::eltwise_forward;
                              return Eltwise::primitive_desc(
                                  Eltwise::desc(prop_kind::forward_inference, found->second, x, 0.f, 0.f),
                                  context.attr(), context.engine);
                          }),
                          {input(DNNL_ARG_SRC, x, 0), output(request, DNNL_ARG_DST, x)}});
}

void plan_elementwise(const Request& request, const Context& context, Plan& plan) {
    device::check_elementwise(request);
    const bool mul_add = request.function == "mul_add";
    const Dtype dtype = request.outputs[0].dtype;
    // The post-op adds c to the product held in f32: for f16 and bf16 that
    // is neither round(round(a * b) + c) nor the fused value.
    if (mul_add && dtype != Dtype::f32)
        device::unsupported(plan.label + ": oneDNN's binary post-op adds c to the f32 product, not to the product "
                                         "rounded to " + name_of(dtype));
    static const std::unordered_map<std::string, algorithm> kAlgorithms{{"add", algorithm::binary_add},
                                                                        {"mul", algorithm::binary_mul},
                                                                        {"maximum", algorithm::binary_max},
                                                                        {"mul_add", algorithm::binary_mul}};
    const memory::desc md = flat(request.outputs[0]);
    dnnl::primitive_attr attr = context.attr();
    std::vector<Operand> operands{input(DNNL_ARG_SRC_0, md, 0), input(DNNL_ARG_SRC_1, md, 1),
                                  output(request, DNNL_ARG_DST, md)};
    if (mul_add) {
        dnnl::post_ops post_ops;
        post_ops.append_binary(algorithm::binary_add, md);
        attr.set_post_ops(post_ops);
        operands.push_back(input(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, md, 2));
    }
    plan.steps.push_back({offered(plan.label, [&] {
                              return dnnl::binary::primitive_desc(
                                  dnnl::binary::desc(kAlgorithms.at(request.function), md, md, md), attr,
                                  context.engine);
                          }),
                          std::move(operands)});
}

void plan_reduction(const Request& request, const Context& context, Plan& plan, algorithm kind) {
    if (kind == algorithm::reduction_sum)
        device::check_reduce_sum(request);
    else
        device::check_reduce_max(request);
    const TensorRef& x = request.inputs[0];
    if (row_length(x) == 1)
        device::unsupported(plan.label + " over rows of one element: oneDNN's reduction refuses a descriptor "
                                         "whose destination has the source's dimensions");
    const memory::desc src = rows(x, row_length(x));
    const memory::desc dst = plain({src.dims()[0], 1}, request.outputs[0].dtype);
    plan.steps.push_back({offered(plan.label, [&] {
                              return dnnl::reduction::primitive_desc(dnnl::reduction::desc(kind, src, dst, 0.f, 0.f),
                                                                     context.attr(), context.engine);
                          }),
                          {input(DNNL_ARG_SRC, src, 0), output(request, DNNL_ARG_DST, dst)}});
}

void plan_cast(const Request& request, const Context& context, Plan& plan) {
    device::check_cast(request);
    const memory::desc from = flat(request.inputs[0]), to = flat(request.outputs[0]);
    plan.steps.push_back({offered(plan.label, [&] {
                              return dnnl::reorder::primitive_desc(context.engine, from, context.engine, to,
                                                                   context.attr());
                          }),
                          {input(DNNL_ARG_FROM, from, 0), output(request, DNNL_ARG_TO, to)}});
}

}  // namespace

Plan plan_of(const Request& request, const Context& context) {
    using Planner = void (*)(const Request&, const Context&, Plan&);
    static const std::unordered_map<std::string, Planner> kPlanners{
        {"matmul", plan_matmul},
        {"softmax", plan_softmax},
        {"layernorm", plan_layernorm},
        {"unary", plan_unary},
        {"elementwise", plan_elementwise},
        {"reduce_sum", [](const Request& r, const Context& c, Plan& p) {
             plan_reduction(r, c, p, algorithm::reduction_sum);
         }},
        {"reduce_max", [](const Request& r, const Context& c, Plan& p) {
             plan_reduction(r, c, p, algorithm::reduction_max);
         }},
        {"cast", plan_cast}};
    const auto planner = kPlanners.find(request.name);
    if (planner == kPlanners.end())
        device::unsupported(request.name + ": oneDNN has no primitive the adapter maps it to");
    if (request.outputs.empty() || request.inputs.empty())
        device::invalid(request.name + ": a call needs at least one input and one output");
    Plan plan;
    plan.label = device::label_of(request);
    planner->second(request, context, plan);
    device::check_contiguous(request);
    plan.empty = true;
    for (const TensorRef& t : request.outputs) plan.empty = plan.empty && t.elements() == 0;
    return plan;
}

void execute(const Plan& plan, const Request& request, device::HostBuffers& buffers, const Context& context) {
    if (plan.empty) return;
    std::vector<std::vector<std::byte>> scratch;
    for (const std::uint64_t bytes : plan.scratch_bytes) scratch.emplace_back(bytes);
    dnnl::stream stream(context.engine);
    for (const Step& step : plan.steps) {
        std::unordered_map<int, memory> arguments;
        for (const Operand& operand : step.operands) {
            void* address = nullptr;
            if (operand.tensor < 0) {
                address = scratch[static_cast<std::size_t>(operand.scratch)].data();
            } else {
                const auto index = static_cast<std::size_t>(operand.tensor);
                const bool is_input = index < request.inputs.size();
                const TensorRef& t = is_input ? request.inputs[index] : request.outputs[index - request.inputs.size()];
                const std::string what = request.name + (is_input ? ": input " : ": output ") +
                                         std::to_string(is_input ? index : index - request.inputs.size());
                address = host::tensor_address(buffers, t, what);
            }
            arguments.emplace(operand.arg, memory(operand.desc, context.engine, address));
        }
        dnnl::primitive(step.pd.get()).execute(stream, arguments);
    }
    stream.wait();
}

}  // namespace kcs::onednn
