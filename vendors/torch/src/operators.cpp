#include "operators.hpp"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>

#include <array>
#include <cmath>
#include <functional>
#include <mutex>
#include <string_view>
#include <vector>

#include "adapter_failure.hpp"
#include "host_library.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"

namespace kcs::torch {

namespace {

using device::Request;
using device::TensorRef;

at::ScalarType type_of(Dtype dtype) {
    switch (dtype) {
        case Dtype::f32: return at::kFloat;
        case Dtype::f16: return at::kHalf;
        case Dtype::bf16: return at::kBFloat16;
        case Dtype::i32: return at::kInt;
        case Dtype::i64: return at::kLong;
        default: device::unsupported(std::string("the adapter maps f32, f16, bf16, i32 and i64 to ATen, not ") + name_of(dtype));
    }
}

// ATen's result of one call from the call's inputs as tensors.
using Call = std::function<at::Tensor(const std::vector<at::Tensor>& in)>;

constexpr std::array<std::int64_t, 1> kLastAxis{-1};  // the reduced axis: rows are the last dimension

Call unary_call(const Request& request, const Options& options) {
    device::check_unary(request);
    const std::string& f = request.function;
    if (f == "exp") return [](const auto& in) { return at::exp(in[0]); };
    if (f == "log") return [](const auto& in) { return at::log(in[0]); };
    if (f == "tanh") return [](const auto& in) { return at::tanh(in[0]); };
    if (f == "erf") return [](const auto& in) { return at::erf(in[0]); };
    if (f == "sigmoid") return [](const auto& in) { return at::sigmoid(in[0]); };
    if (f == "rsqrt") return [](const auto& in) { return at::rsqrt(in[0]); };
    const char* approximate = options.gelu_tanh ? "tanh" : "none";  // f == "gelu": check_unary lists no other
    return [approximate](const auto& in) { return at::gelu(in[0], approximate); };
}

Call elementwise_call(const Request& request) {
    device::check_elementwise(request);
    const std::string& f = request.function;
    if (f == "add") return [](const auto& in) { return at::add(in[0], in[1]); };
    if (f == "mul") return [](const auto& in) { return at::mul(in[0], in[1]); };
    if (f == "maximum") return [](const auto& in) { return at::maximum(in[0], in[1]); };
    // mul_add: addcmul(self, tensor1, tensor2) is self + value * tensor1 * tensor2, value 1.
    return [](const auto& in) { return at::addcmul(in[2], in[0], in[1]); };
}

Call attention_call(const Request& request) {
    device::check_attention(request);
    const device::AttentionParameters p = device::attention_parameters(request);
    const float own = 1.0f / std::sqrt(static_cast<float>(p.head_dim));
    if (request.has("scale") && p.scale != own)
        device::unsupported("attention with scale " + std::to_string(p.scale) +
                            ": ATen 1.13's _scaled_dot_product_attention has no scale argument (it scales by "
                            "1/sqrt(D), " + std::to_string(own) + " here)");
    // ATen takes [batch, S, D]: the call's rank-2 tensors as one batch.
    return [causal = p.causal](const auto& in) {
        const auto result = at::_scaled_dot_product_attention(in[0].unsqueeze(0), in[1].unsqueeze(0),
                                                              in[2].unsqueeze(0), {}, 0.0, false, causal);
        return std::get<0>(result).squeeze(0);
    };
}

// The ATen call for a request, after the checks of what the operator takes.
Call call_of(const Request& request, const Options& options) {
    const std::string& name = request.name;
    if (name == "matmul") {
        device::check_matmul(request);
        return [](const auto& in) { return at::matmul(in[0], in[1]); };
    }
    if (name == "softmax") {
        device::check_softmax(request);
        // The output dtype argument: ATen casts the input to it first.
        return [dtype = type_of(request.outputs[0].dtype)](const auto& in) { return at::softmax(in[0], -1, dtype); };
    }
    if (name == "layernorm") {
        device::check_layernorm(request);
        return [eps = static_cast<double>(device::eps_of(request))](const auto& in) {
            return at::layer_norm(in[0], {in[0].size(-1)}, in[1], in[2], eps);
        };
    }
    if (name == "rmsnorm") {
        device::check_rmsnorm(request);
        device::unsupported("rmsnorm: ATen 1.13 has no RMS normalization (at::rms_norm came with PyTorch 2.4)");
    }
    if (name == "attention") return attention_call(request);
    if (name == "reduce_sum") {
        device::check_reduce_sum(request);
        return [dtype = type_of(request.outputs[0].dtype)](const auto& in) {
            return at::sum(in[0], at::IntArrayRef(kLastAxis), false, dtype);
        };
    }
    if (name == "reduce_max") {
        device::check_reduce_max(request);
        return [](const auto& in) { return at::amax(in[0], at::IntArrayRef(kLastAxis)); };
    }
    if (name == "unary") return unary_call(request, options);
    if (name == "elementwise") return elementwise_call(request);
    if (name == "cast") {
        device::check_cast(request);
        return [dtype = type_of(request.outputs[0].dtype)](const auto& in) { return in[0].to(dtype); };
    }
    if (name == "gather") {
        device::check_gather(request);
        return [](const auto& in) { return at::index_select(in[0], 0, in[1].reshape({-1})); };
    }
    device::unsupported(name + ": the adapter maps no ATen function to it");
}

// ATen's errors as the ABI's: an IndexError is the out-of-range index
// gather reports; a kernel missing for a dtype and a refusal under
// deterministic algorithms are what ATen does not offer. ATen 1.13's
// dispatch macros raise the first as a plain c10::Error (AT_ERROR: "\"name\"
// not implemented for 'Half'"), so it is told by its message.
template <class Body>
void translated(const std::string& label, Body&& body) {
    try {
        body();
    } catch (const c10::IndexError& e) {
        device::fail(KCS_OUT_OF_RANGE, label + ": ATen: " + e.what_without_backtrace());
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        if (dynamic_cast<const c10::NotImplementedError*>(&e) || what.find(" not implemented for '") != std::string::npos)
            device::unsupported(label + ": ATen: " + what);
        if (what.find("does not have a deterministic implementation") != std::string::npos)
            device::unsupported(label + ": ATen refuses it under deterministic=true: " + what);
        device::fail(KCS_DEVICE_ERROR, label + ": ATen: " + what);
    }
}

// ATen's global state for the calls of one instance, set before each call:
// instances in one process may differ. The settings are the process's, so
// one call at a time holds them (two instances used from two threads at
// once, KCS-ABI-6, take turns rather than run under each other's
// settings). Flush-to-zero is the calling thread's (MXCSR), so it is undone
// after the call.
class Scope {
public:
    explicit Scope(const Options& options) : lock_(mutex()), flush_(options.flush_denormal) {
        at::set_num_threads(threads_of(options));
        at::globalContext().setDeterministicAlgorithms(options.deterministic, false);
        if (flush_) at::globalContext().setFlushDenormal(true);
    }
    ~Scope() {
        if (flush_) at::globalContext().setFlushDenormal(false);
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

private:
    static std::mutex& mutex() {
        static std::mutex m;
        return m;
    }
    std::lock_guard<std::mutex> lock_;
    bool flush_;
};

// The result must be what the call's output holds: its dtype, its element count.
void check_result(const std::string& label, const at::Tensor& result, const TensorRef& out) {
    if (result.scalar_type() != type_of(out.dtype))
        device::unsupported(label + ": ATen returns " + std::string(c10::toString(result.scalar_type())) +
                            ", not the output's " + name_of(out.dtype) + " (no ATen argument selects the output dtype)");
    if (static_cast<std::uint64_t>(result.numel()) != out.elements())
        device::fail(KCS_INTERNAL_ERROR, label + ": ATen returns " + std::to_string(result.numel()) +
                                             " elements for an output of " + std::to_string(out.elements()));
}

std::string probe_key(const std::string& label, const Request& request) {
    std::string key = label;
    for (const auto* tensors : {&request.inputs, &request.outputs})
        for (const TensorRef& t : *tensors) key.append(" ").append(device::shape_text(t.shape));
    return key;
}

// The ATen call for the request once ATen offers it: the probe's answer,
// kept in `refusals` by configuration and shapes ("" where offered).
// Throws as Aten::check_offered.
Call offered_call(std::map<std::string, std::string>& refusals, const Options& options, const Request& request,
                  const std::string& label) {
    const Call call = call_of(request, options);
    device::check_contiguous(request);
    const std::string key = probe_key(label, request);
    auto found = refusals.find(key);
    if (found == refusals.end()) {
        std::string refusal;
        try {
            translated(label, [&] {
                std::vector<at::Tensor> in;
                for (const TensorRef& t : request.inputs) in.push_back(at::zeros(t.shape, type_of(t.dtype)));
                const Scope scope(options);
                check_result(label, call(in), request.outputs[0]);
            });
        } catch (const device::AdapterFailure& failure) {
            if (failure.status() == KCS_UNSUPPORTED) refusal = failure.what();
        }
        found = refusals.emplace(key, refusal).first;
    }
    if (!found->second.empty()) device::unsupported(found->second);
    return call;
}

}  // namespace

int threads_of(const Options& options) {
    static const int initial = at::get_num_threads();  // before any instance has set it
    return options.threads.value_or(initial);
}

void Aten::check_offered(const Request& request) {
    offered_call(refusals_, options_, request, device::label_of(request));
}

void Aten::compute(const Request& request, device::HostBuffers& buffers) {
    const std::string label = device::label_of(request);
    const Call call = offered_call(refusals_, options_, request, label);
    const TensorRef& out = request.outputs[0];
    if (out.elements() == 0) return;
    const auto view = [&](const TensorRef& t, const std::string& what) {
        return at::from_blob(host::tensor_address(buffers, t, request.name + ": " + what), t.shape,
                             at::TensorOptions().dtype(type_of(t.dtype)));
    };
    std::vector<at::Tensor> in;
    for (std::size_t i = 0; i < request.inputs.size(); ++i)
        in.push_back(view(request.inputs[i], "input " + std::to_string(i)));
    at::Tensor target = view(out, "output 0");
    translated(label, [&] {
        const Scope scope(options_);
        const at::Tensor result = call(in);
        check_result(label, result, out);
        target.copy_(result.reshape(target.sizes()));
    });
}

std::string Aten::mapping() const {
    return std::string(
               "matmul: at::matmul (rank 2: mm, rank 3: bmm); softmax: at::softmax(x, -1, output dtype); layernorm: "
               "at::layer_norm over the last axis; attention: at::_scaled_dot_product_attention (no mask, no "
               "dropout, is_causal from causal; scale 1/sqrt(D) only); reduce_sum: at::sum(x, -1, output dtype); "
               "reduce_max: at::amax(x, -1); unary: at::exp, log, tanh, erf, sigmoid, rsqrt, gelu(approximate=") +
           (options_.gelu_tanh ? "\"tanh\"" : "\"none\"") +
           "); elementwise: at::add, mul, maximum, mul_add as at::addcmul(c, a, b); cast: Tensor::to(dtype); gather: "
           "at::index_select(table, 0, index)\noffered: whatever ATen computes in the call's dtypes and returns in the "
           "output's dtype, as it answers for zero-filled tensors of the call's shapes (declined with ATen's reason "
           "otherwise); rmsnorm declined (ATen 1.13 has none)";
}

}  // namespace kcs::torch
