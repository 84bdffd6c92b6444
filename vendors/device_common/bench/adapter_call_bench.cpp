#include "adapter_call_bench.hpp"

#include <dlfcn.h>
#include <kcs/adapter.h>

#include <span>
#include <stdexcept>
#include <vector>

#include "kcs/host/isolated_adapter.hpp"

namespace kcs::device::bench {

namespace {

kcs_tensor tensor(kcs_buffer buffer, kcs_dtype dtype, std::vector<std::int64_t> shape) {
    kcs_tensor t{};
    t.buffer = buffer;
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

}  // namespace

void adapter_reduce_sum(benchmark::State& state, const char* path) {
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) throw std::runtime_error(dlerror());
    const auto entry = reinterpret_cast<kcs_adapter_entry_fn>(dlsym(library, KCS_ADAPTER_ENTRY_SYMBOL));
    const kcs_adapter_api& api = *entry(KCS_ADAPTER_ABI_VERSION);
    kcs_adapter* adapter = nullptr;
    if (api.open(nullptr, 0, &adapter) != KCS_OK) throw std::runtime_error(api.last_error(nullptr));
    kcs_buffer x = 0, y = 0;
    api.alloc(adapter, kRows * kLength * 4, &x);
    api.alloc(adapter, kRows * 4, &y);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    api.write(adapter, x, 0, ones.data(), ones.size() * 4);
    const kcs_tensor in = tensor(x, KCS_DTYPE_F32, {kRows, kLength}), out = tensor(y, KCS_DTYPE_F32, {kRows});
    kcs_op op{};
    op.struct_size = sizeof op;
    op.name = "reduce_sum";
    op.accumulate = KCS_DTYPE_F32;
    op.input_count = 1;
    op.inputs = &in;
    op.output_count = 1;
    op.outputs = &out;
    op.attribute_size = sizeof(kcs_attribute);
    op.tensor_size = sizeof(kcs_tensor);
    for (auto _ : state)
        if (api.run(adapter, &op) != KCS_OK) state.SkipWithError(api.last_error(adapter));
    api.close(adapter);
    dlclose(library);
}
void isolated_reduce_sum(benchmark::State& state, const char* path) {
    kcs::host::IsolatedAdapter adapter(path);
    const auto x = adapter.alloc(kRows * kLength * 4), y = adapter.alloc(kRows * 4);
    const std::vector<float> ones(kRows * kLength, 1.0f);
    adapter.write(x.value, 0, std::as_bytes(std::span(ones)));
    kcs::host::Operation op;
    op.name = "reduce_sum";
    op.accumulate = KCS_DTYPE_F32;
    op.inputs.push_back({x.value, 0, KCS_DTYPE_F32, {kRows, kLength}, {}});
    op.outputs.push_back({y.value, 0, KCS_DTYPE_F32, {kRows}, {}});
    for (auto _ : state)
        if (!adapter.run(op).ok()) state.SkipWithError("run failed");
}

}  // namespace kcs::device::bench
