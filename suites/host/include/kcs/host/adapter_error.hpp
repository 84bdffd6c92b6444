// AdapterError: an adapter that cannot be used at all: missing, not a
// library, another ABI, or it refused to open. The CLI exits 2 on it.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kcs::host {

enum class AdapterProblem {
    not_found,         // no file at the path, or no adapter of that name
    not_a_library,     // the file is not a shared library at all
    cannot_load,       // a shared library the dynamic loader rejects (a missing dependency, ...)
    no_entry_symbol,   // kcs_adapter_entry is not exported
    no_table,          // kcs_adapter_entry(negotiated version) returned NULL
    abi_version,       // no version both speak, or the table says another version than negotiated
    table_size,        // the table is smaller than its version's kcs_adapter_api
    incomplete_table,  // a NULL function pointer or an empty name
    open_failed,       // open() failed; the detail carries the adapter's last_error
    worker_failed,     // kcs-worker could not start, or died or hung while loading or opening
};

std::string_view to_string(AdapterProblem problem);

class AdapterError : public std::runtime_error {
public:
    // what() is "adapter PATH: DETAIL".
    AdapterError(std::filesystem::path path, AdapterProblem problem, std::string detail);

    const std::filesystem::path& path() const noexcept { return path_; }
    AdapterProblem problem() const noexcept { return problem_; }
    const std::string& detail() const noexcept { return detail_; }

private:
    std::filesystem::path path_;
    AdapterProblem problem_;
    std::string detail_;
};

}  // namespace kcs::host
