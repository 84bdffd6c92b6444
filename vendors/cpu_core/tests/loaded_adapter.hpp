// Test support: an adapter module loaded with dlopen, an open instance of
// it, and tensors and ops built the way the harness builds them.
#pragma once

#include <kcs/adapter.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kcs::cpu_core::test {

// The module at `path`, loaded RTLD_NOW | RTLD_LOCAL; throws
// std::runtime_error when it does not load or has no entry point.
class LoadedAdapter {
public:
    explicit LoadedAdapter(const std::string& path);
    ~LoadedAdapter();
    LoadedAdapter(const LoadedAdapter&) = delete;
    LoadedAdapter& operator=(const LoadedAdapter&) = delete;

    kcs_adapter_entry_fn entry() const { return entry_; }
    const kcs_adapter_api& api() const { return *api_; }
    void* symbol(const char* name) const;  // dlsym, nullptr when absent

private:
    void* handle_ = nullptr;
    kcs_adapter_entry_fn entry_ = nullptr;
    const kcs_adapter_api* api_ = nullptr;
};

LoadedAdapter& reference_cpu();  // loaded once per test program
LoadedAdapter& calibration();

// An instance opened with `options`, closed on destruction; throws
// std::runtime_error with last_error(NULL) when open fails.
class Instance {
public:
    Instance(const kcs_adapter_api& api, const std::vector<std::string>& options = {});
    ~Instance();
    Instance(const Instance&) = delete;
    Instance& operator=(const Instance&) = delete;

    kcs_adapter* get() const { return adapter_; }
    const kcs_adapter_api& api() const { return api_; }
    std::string last_error() const { return api_.last_error(adapter_); }

    kcs_buffer alloc(std::uint64_t bytes);  // throws unless KCS_OK
    void write(kcs_buffer buffer, std::uint64_t offset, const void* src, std::uint64_t bytes);
    void read(kcs_buffer buffer, std::uint64_t offset, void* dst, std::uint64_t bytes);

private:
    const kcs_adapter_api& api_;
    kcs_adapter* adapter_ = nullptr;
};

// open() with these option strings; the status, and the adapter closed.
kcs_status try_open(const kcs_adapter_api& api, const std::vector<std::string>& options);

// Why the adapter cannot open with its default options ("no CUDA device:
// ..."), or "" when it can: asked once per program, for the tests of a
// device adapter to SKIP with the reason where there is no device.
const std::string& open_failure(const kcs_adapter_api& api);

// A row-major contiguous tensor.
kcs_tensor tensor(kcs_buffer buffer, std::uint64_t offset, kcs_dtype dtype, const std::vector<std::int64_t>& shape);

// One operator invocation; op() points into this object, which must outlive it.
struct OpSpec {
    std::string name;
    std::string function;  // empty: NULL
    kcs_dtype accumulate = 0;
    std::vector<kcs_attribute> attributes;
    std::vector<kcs_tensor> inputs;
    std::vector<kcs_tensor> outputs;

    kcs_op op() const;
};

}  // namespace kcs::cpu_core::test
