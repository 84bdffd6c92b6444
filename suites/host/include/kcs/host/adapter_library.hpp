// AdapterLibrary: one adapter shared library, loaded into this process, its
// ABI version negotiated (1.0 or 1.1) and its table checked. Loading runs the adapter's code in the loading
// process, so the harness does it only inside kcs-worker (IsolatedAdapter);
// tests and tools that accept that risk may use it directly.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <kcs/adapter.h>

namespace kcs::host {

// "1.0", "1.1"; a value that is no version says so.
std::string abi_version_text(std::uint32_t version);
// Whether this harness drives an adapter of `version` (1.0 and 1.1).
bool harness_speaks(std::uint32_t version);

class AdapterLibrary {
public:
    // Opens the library and negotiates the ABI (KCS-ABI-1 to 4): offers
    // 1.1 to kcs_adapter_negotiate (1.0 when the adapter has none), then
    // kcs_adapter_entry(version) must return a table of that version, at
    // least sizeof(kcs_adapter_api) long, every function set and a non-empty
    // name. Throws AdapterError naming the path, the first check that
    // failed and, for a version mismatch, both versions.
    static AdapterLibrary load(const std::filesystem::path& path);

    AdapterLibrary(AdapterLibrary&& other) noexcept;
    AdapterLibrary& operator=(AdapterLibrary&& other) noexcept;
    AdapterLibrary(const AdapterLibrary&) = delete;
    AdapterLibrary& operator=(const AdapterLibrary&) = delete;
    ~AdapterLibrary();

    const kcs_adapter_api& api() const noexcept { return *api_; }
    std::uint32_t abi_version() const noexcept { return api_->abi_version; }  // the negotiated version
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    AdapterLibrary(std::filesystem::path path, void* handle, const kcs_adapter_api* api);

    std::filesystem::path path_;
    void* handle_ = nullptr;
    const kcs_adapter_api* api_ = nullptr;
};

}  // namespace kcs::host
