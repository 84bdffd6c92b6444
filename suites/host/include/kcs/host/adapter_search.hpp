// Finding adapters by name: NAME is the file libkcs-adapter-NAME.so in one
// of the folders of the search path.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace kcs::host {

// The folders of KCS_ADAPTER_PATH (colon-separated, in order; empty entries
// are skipped), then the build tree's lib/ folder (KCS_ADAPTER_DIR).
std::vector<std::filesystem::path> adapter_search_path();

// The same from explicit values, for tests and tools.
std::vector<std::filesystem::path> adapter_search_path(std::string_view kcs_adapter_path,
                                                       const std::filesystem::path& build_dir);

// "libkcs-adapter-NAME.so".
std::string adapter_file_name(std::string_view name);

// An argument that contains '/' or ends in ".so" is a path and comes back
// as given (the loader reports a missing file). Anything else is a name,
// looked up in the search path's folders in order. Throws AdapterError
// (not_found) naming the folders searched when no folder has it.
std::filesystem::path resolve_adapter(
    std::string_view name_or_path,
    const std::vector<std::filesystem::path>& search_path = adapter_search_path());

struct FoundAdapter {
    std::string name;             // what resolve_adapter accepts
    std::filesystem::path path;
};

// Every libkcs-adapter-*.so in the search path, sorted by name. A name found
// in several folders is listed once, with the path resolve_adapter picks.
// Nothing is loaded.
std::vector<FoundAdapter> find_adapters(
    const std::vector<std::filesystem::path>& search_path = adapter_search_path());

}  // namespace kcs::host
