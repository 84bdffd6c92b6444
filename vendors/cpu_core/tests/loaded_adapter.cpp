#include "loaded_adapter.hpp"

#include <dlfcn.h>

#include <map>
#include <stdexcept>

namespace kcs::cpu_core::test {

LoadedAdapter::LoadedAdapter(const std::string& path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::runtime_error("dlopen " + path + ": " + dlerror());
    entry_ = reinterpret_cast<kcs_adapter_entry_fn>(dlsym(handle_, KCS_ADAPTER_ENTRY_SYMBOL));
    if (!entry_) throw std::runtime_error(path + " has no " KCS_ADAPTER_ENTRY_SYMBOL);
    api_ = entry_(KCS_ADAPTER_ABI_VERSION);
    if (!api_) throw std::runtime_error(path + " does not implement ABI version 1");
}

LoadedAdapter::~LoadedAdapter() { dlclose(handle_); }

void* LoadedAdapter::symbol(const char* name) const { return dlsym(handle_, name); }

LoadedAdapter& reference_cpu() {
    static LoadedAdapter adapter(KCS_REFERENCE_CPU_ADAPTER);
    return adapter;
}

LoadedAdapter& calibration() {
    static LoadedAdapter adapter(KCS_CALIBRATION_ADAPTER);
    return adapter;
}

namespace {

std::vector<const char*> pointers(const std::vector<std::string>& options) {
    std::vector<const char*> out;
    for (const auto& o : options) out.push_back(o.c_str());
    return out;
}

}  // namespace

Instance::Instance(const kcs_adapter_api& api, const std::vector<std::string>& options) : api_(api) {
    const auto argv = pointers(options);
    const kcs_status status = api_.open(argv.data(), static_cast<std::uint32_t>(argv.size()), &adapter_);
    if (status != KCS_OK) throw std::runtime_error(std::string("open failed: ") + api_.last_error(nullptr));
}

Instance::~Instance() { api_.close(adapter_); }

kcs_buffer Instance::alloc(std::uint64_t bytes) {
    kcs_buffer buffer = 0;
    if (api_.alloc(adapter_, bytes, &buffer) != KCS_OK) throw std::runtime_error(last_error());
    return buffer;
}

void Instance::write(kcs_buffer buffer, std::uint64_t offset, const void* src, std::uint64_t bytes) {
    if (api_.write(adapter_, buffer, offset, src, bytes) != KCS_OK) throw std::runtime_error(last_error());
}

void Instance::read(kcs_buffer buffer, std::uint64_t offset, void* dst, std::uint64_t bytes) {
    if (api_.read(adapter_, buffer, offset, dst, bytes) != KCS_OK) throw std::runtime_error(last_error());
}

kcs_status try_open(const kcs_adapter_api& api, const std::vector<std::string>& options) {
    const auto argv = pointers(options);
    kcs_adapter* adapter = nullptr;
    const kcs_status status = api.open(argv.data(), static_cast<std::uint32_t>(argv.size()), &adapter);
    api.close(adapter);
    return status;
}

const std::string& open_failure(const kcs_adapter_api& api) {
    static std::map<const kcs_adapter_api*, std::string> reasons;
    const auto found = reasons.find(&api);
    if (found != reasons.end()) return found->second;
    const std::string reason = try_open(api, {}) == KCS_OK ? std::string() : std::string(api.last_error(nullptr));
    return reasons.emplace(&api, reason).first->second;
}

kcs_tensor tensor(kcs_buffer buffer, std::uint64_t offset, kcs_dtype dtype, const std::vector<std::int64_t>& shape) {
    kcs_tensor t{};
    t.buffer = buffer;
    t.offset = offset;
    t.dtype = dtype;
    t.rank = static_cast<std::uint32_t>(shape.size());
    std::int64_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        t.shape[d] = shape[d];
        t.strides[d] = stride;
        stride *= shape[d];
    }
    return t;
}

kcs_op OpSpec::op() const {
    kcs_op op{};
    op.struct_size = sizeof(kcs_op);
    op.name = name.c_str();
    op.function = function.empty() ? nullptr : function.c_str();
    op.accumulate = accumulate;
    op.attribute_count = static_cast<std::uint32_t>(attributes.size());
    op.attributes = attributes.data();
    op.input_count = static_cast<std::uint32_t>(inputs.size());
    op.inputs = inputs.data();
    op.output_count = static_cast<std::uint32_t>(outputs.size());
    op.outputs = outputs.data();
    op.attribute_size = sizeof(kcs_attribute);
    op.tensor_size = sizeof(kcs_tensor);
    return op;
}

}  // namespace kcs::cpu_core::test
