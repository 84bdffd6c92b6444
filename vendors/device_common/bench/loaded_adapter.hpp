// An adapter loaded in this process through its C ABI, as kcs-worker loads
// it: for the benchmarks that time the adapter without the process
// boundary or the harness. Every failing call throws std::runtime_error
// with the adapter's last error.
#pragma once

#include <kcs/adapter.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kcs::device::bench {

class LoadedAdapter {
public:
    LoadedAdapter(const char* path, const std::vector<std::string>& options);
    ~LoadedAdapter();
    LoadedAdapter(const LoadedAdapter&) = delete;
    LoadedAdapter& operator=(const LoadedAdapter&) = delete;

    kcs_buffer alloc(std::uint64_t bytes);  // released on destruction
    void write(kcs_buffer buffer, const void* data, std::uint64_t bytes);
    void read(kcs_buffer buffer, void* data, std::uint64_t bytes);
    void run(const kcs_op& op);
    // A buffer holding `count` floats, each `value`.
    kcs_buffer filled(std::uint64_t count, float value);

    const kcs_adapter_api& api() const { return *api_; }
    kcs_adapter* adapter() const { return adapter_; }

private:
    void check(kcs_status status, const char* what) const;

    void* library_;
    const kcs_adapter_api* api_ = nullptr;
    kcs_adapter* adapter_ = nullptr;
    std::vector<kcs_buffer> buffers_;
};

}  // namespace kcs::device::bench
