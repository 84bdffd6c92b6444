#include "kcs/host/adapter_error.hpp"

namespace kcs::host {

std::string_view to_string(AdapterProblem problem) {
    switch (problem) {
        case AdapterProblem::not_found: return "not_found";
        case AdapterProblem::not_a_library: return "not_a_library";
        case AdapterProblem::cannot_load: return "cannot_load";
        case AdapterProblem::no_entry_symbol: return "no_entry_symbol";
        case AdapterProblem::no_table: return "no_table";
        case AdapterProblem::abi_version: return "abi_version";
        case AdapterProblem::table_size: return "table_size";
        case AdapterProblem::incomplete_table: return "incomplete_table";
        case AdapterProblem::open_failed: return "open_failed";
        case AdapterProblem::worker_failed: return "worker_failed";
    }
    return "unknown";
}

AdapterError::AdapterError(std::filesystem::path path, AdapterProblem problem, std::string detail)
    : std::runtime_error("adapter " + path.string() + ": " + detail),
      path_(std::move(path)),
      problem_(problem),
      detail_(std::move(detail)) {}

}  // namespace kcs::host
