// The artifacts a report's verdict is about, each with its sha256: the
// in-toto subjects of the Statement.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

struct Subject {
    std::string role;    // adapter | claims | catalog | kcs
    std::string name;    // the file name; for the catalog "catalog-v<spec_version>"
    std::string sha256;  // 64 hex digits
    std::string path;    // where it was read from (the catalog's folder)
};

// The adapter library, the claims file (when the run had one), the catalog
// (its canonical digest, not its files' bytes) and the kcs executable.
// Throws std::runtime_error naming a file that cannot be read.
std::vector<Subject> make_subjects(const std::filesystem::path& adapter_library, const harness::Claims& claims,
                                   const spec::Catalog& catalog, const std::filesystem::path& kcs_executable);

// 64 hex digits over the file's bytes; throws std::runtime_error when it cannot be read.
std::string sha256_file(const std::filesystem::path& file);

}  // namespace kcs::reports
