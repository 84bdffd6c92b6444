// AdapterLibrary: one adapter shared library, loaded into this process and
// checked against ABI v1. Loading runs the adapter's code in the loading
// process, so the harness does it only inside kcs-worker (IsolatedAdapter);
// tests and tools that accept that risk may use it directly.
#pragma once

#include <filesystem>

#include <kcs/adapter.h>

namespace kcs::host {

class AdapterLibrary {
public:
    // Opens the library and negotiates the ABI: kcs_adapter_entry(1) must
    // return a table with abi_version 1, struct_size >= sizeof(kcs_adapter_api),
    // every function set and a non-empty name. Throws AdapterError naming
    // the path and the first check that failed.
    static AdapterLibrary load(const std::filesystem::path& path);

    AdapterLibrary(AdapterLibrary&& other) noexcept;
    AdapterLibrary& operator=(AdapterLibrary&& other) noexcept;
    AdapterLibrary(const AdapterLibrary&) = delete;
    AdapterLibrary& operator=(const AdapterLibrary&) = delete;
    ~AdapterLibrary();

    const kcs_adapter_api& api() const noexcept { return *api_; }
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    AdapterLibrary(std::filesystem::path path, void* handle, const kcs_adapter_api* api);

    std::filesystem::path path_;
    void* handle_ = nullptr;
    const kcs_adapter_api* api_ = nullptr;
};

}  // namespace kcs::host
