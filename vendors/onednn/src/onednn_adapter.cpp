// libkcs-adapter-onednn.so: the v1 operators oneDNN has primitives for
// (matmul, softmax, layer normalization, eltwise, binary, reduction,
// reorder as cast), each computed by oneDNN's own primitive (plan.cpp says
// which); every other operator, and every configuration oneDNN declines to
// create a primitive for on this CPU, is KCS_UNSUPPORTED. The ABI, buffers
// and request parsing are device_common's host-library layer.
#include <oneapi/dnnl/dnnl.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
#include <omp.h>
#endif

#include "adapter_failure.hpp"
#include "host_library.hpp"
#include "options.hpp"
#include "plan.hpp"

namespace kcs::onednn {

namespace {

std::string runtime_name(unsigned runtime) {
    switch (runtime) {
        case DNNL_RUNTIME_SEQ: return "sequential";
        case DNNL_RUNTIME_OMP: return "OpenMP";
        case DNNL_RUNTIME_TBB: return "TBB";
        case DNNL_RUNTIME_THREADPOOL: return "threadpool";
        default: return "runtime " + std::to_string(runtime);
    }
}

#if DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_OMP
// OpenMP keeps the thread count per calling thread (its nthreads ICV), and
// oneDNN reads it when it creates and when it runs a primitive; so an
// instance sets its own around each call and gives the caller's back.
class ThreadScope {
public:
    explicit ThreadScope(std::optional<int> threads) : before_(omp_get_max_threads()), set_(threads.has_value()) {
        if (threads) omp_set_num_threads(*threads);
    }
    ~ThreadScope() {
        if (set_) omp_set_num_threads(before_);
    }
    ThreadScope(const ThreadScope&) = delete;
    ThreadScope& operator=(const ThreadScope&) = delete;

private:
    int before_;
    bool set_;
};
int default_threads() { return omp_get_max_threads(); }
#else
struct ThreadScope {
    explicit ThreadScope(std::optional<int>) {}
};
int default_threads() { return 0; }
#endif

device::TensorRef tensor(Dtype dtype, std::vector<std::int64_t> shape) {
    device::TensorRef t;
    t.dtype = dtype;
    t.strides.assign(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;) t.strides[d - 1] = t.strides[d] * shape[d];
    t.shape = std::move(shape);
    return t;
}

// Representative calls whose primitives info() names, so that a report says
// which oneDNN implementation each operator gets on this CPU.
std::vector<device::Request> probes() {
    const Dtype f32 = Dtype::f32, bf16 = Dtype::bf16, f16 = Dtype::f16;
    const auto call = [](std::string name, std::string function, std::vector<device::TensorRef> inputs,
                         device::TensorRef out) {
        device::Request r;
        r.name = std::move(name), r.function = std::move(function), r.inputs = std::move(inputs);
        r.outputs = {std::move(out)};
        return r;
    };
    const auto square = [&](Dtype in, Dtype out) {
        return call("matmul", "", {tensor(in, {64, 64}), tensor(in, {64, 64})}, tensor(out, {64, 64}));
    };
    const auto rows = [&](Dtype d) { return tensor(d, {16, 1024}); };
    const auto vector = [&](Dtype d) { return tensor(d, {4096}); };
    return {square(f32, f32), square(bf16, f32), square(f16, f32),
            call("softmax", "", {rows(f32)}, rows(f32)), call("softmax", "", {rows(bf16)}, rows(bf16)),
            call("layernorm", "", {rows(f32), tensor(f32, {1024}), tensor(f32, {1024})}, rows(f32)),
            call("unary", "exp", {vector(f32)}, vector(f32)),
            call("elementwise", "add", {vector(f32), vector(f32)}, vector(f32)),
            call("reduce_sum", "", {rows(f32)}, tensor(f32, {16})),
            call("cast", "", {vector(f32)}, vector(bf16)), call("cast", "", {vector(f32)}, vector(f16))};
}

// A refusal's message without the configuration it begins with ("matmul bf16 x bf16 -> f32: ").
std::string reason_of(const std::string& message) {
    const auto colon = message.find(": ");
    return colon == std::string::npos ? message : message.substr(colon + 2);
}

class OneDnn final : public host::Library {
public:
    explicit OneDnn(const Options& options)
        : options_(options),
          isa_cap_(apply_isa(options.isa)),
          object_(host::shared_object_of(reinterpret_cast<const void*>(&dnnl_version))) {
        if (options.threads && dnnl::version()->cpu_runtime != DNNL_RUNTIME_OMP)
            device::invalid("threads=" + std::to_string(*options.threads) + ": this oneDNN's CPU runtime is " +
                            runtime_name(dnnl::version()->cpu_runtime) + "; the adapter sets threads for OpenMP alone");
        context_.engine = dnnl::engine(dnnl::engine::kind::cpu, 0);
        context_.fpmath = options.fpmath;
        const ThreadScope threads(options_.threads);
        for (const device::Request& probe : probes()) {
            std::string impl;
            try {
                impl = plan_of(probe, context_).steps.back().pd.impl_info_str();
            } catch (const device::AdapterFailure& e) {
                impl = "declined (" + reason_of(e.what()) + ")";
            }
            probe_lines_ += "\n  " + probe_text(probe) + ": " + impl;
        }
    }

    host::Description describe() const override;

    void supports(const device::Request& request) override {
        const ThreadScope threads(options_.threads);
        plan_of(request, context_);
    }

    void run(const device::Request& request, device::HostBuffers& buffers) override {
        const ThreadScope threads(options_.threads);
        const Plan plan = plan_of(request, context_);
        execute(plan, request, buffers, context_);
        chosen_[plan.label].insert(plan.steps.back().pd.impl_info_str());
    }

private:
    static std::string probe_text(const device::Request& probe);

    Options options_;
    std::string isa_cap_;  // the isa= in force in this process, "" for none
    std::string object_;   // the shared object oneDNN was loaded from
    Context context_;
    std::string probe_lines_;
    std::map<std::string, std::set<std::string>> chosen_;  // label -> implementations run
};

std::string OneDnn::probe_text(const device::Request& probe) {
    std::string text = probe.name + (probe.function.empty() ? "" : " " + probe.function) + " ";
    for (std::size_t i = 0; i < probe.inputs.size(); ++i)
        text.append(i ? " x " : "").append(name_of(probe.inputs[i].dtype)).append(" ").append(
            device::shape_text(probe.inputs[i].shape));
    return text + " -> " + name_of(probe.outputs[0].dtype);
}

host::Description OneDnn::describe() const {
    const dnnl_version_t& v = *dnnl::version();
    const std::string version = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
    const std::string isa = isa_name(dnnl::get_effective_cpu_isa());
    const std::string threads = options_.threads
                                    ? std::to_string(*options_.threads) + " (threads=, omp_set_num_threads per call)"
                                    : std::to_string(default_threads()) + " (the OpenMP default)";
    std::string notes = "library: " + object_ + "\noneDNN " + version + ", git " + v.hash +
                        " (dnnl_version)\nCPU runtime: " + runtime_name(v.cpu_runtime) + "\nthreads: " + threads +
                        "\nISA: " + isa + " (dnnl_get_effective_cpu_isa), cap " +
                        (isa_cap_.empty() ? "none" : "isa=" + isa_cap_ + " (dnnl_set_max_cpu_isa)") +
                        "\nfpmath: " + options_.fpmath_name + " (primitive_attr::set_fpmath_mode on every primitive)" +
                        "\nimplementations at open (primitive_desc::impl_info_str):" + probe_lines_ +
                        "\nimplementations run by this instance:";
    if (chosen_.empty()) notes += " none yet";
    for (const auto& [label, impls] : chosen_) {
        notes += "\n  " + label + ":";
        for (const std::string& impl : impls) notes += " " + impl;
    }
    notes += "\ndeclined: attention, gather, rmsnorm, unary erf and rsqrt (oneDNN 2.6 has no primitive for them), "
             "elementwise mul_add on f16 and bf16, layernorm to another dtype, matmul with K = 0, and every "
             "configuration whose primitive oneDNN does not create on this CPU";
    return {"oneDNN", device::host_device_name() + ", oneDNN ISA " + isa, "oneDNN " + version + " (" + v.hash + ")",
            notes};
}

struct Module {
    static constexpr const char* kName = "onednn";
    static std::unique_ptr<host::Library> open(const char* const* options, std::uint32_t option_count) {
        return std::make_unique<OneDnn>(parse_options(options, option_count));
    }
};

}  // namespace

}  // namespace kcs::onednn

KCS_ADAPTER_DEFINE_EXPORTS(kcs::device::AbiEntries<kcs::host::Backend<kcs::onednn::Module>>::api)
