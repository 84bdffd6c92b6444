// What kcs verify and kcs table trust: the public keys named on the command
// line and the catalogs this kcs carries (a report is checked against the
// catalog its digest names, which must be one of them).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kcs/reports/verify.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

struct TrustedInputs {
    std::vector<std::unique_ptr<spec::Catalog>> catalogs;  // owned; inputs.catalogs points at them
    reports::VerifyInputs inputs;
};

// Reads every public key file (reports::KeyFileError when one cannot be
// used) and loads every carried catalog that loads cleanly.
TrustedInputs load_trusted_inputs(const std::vector<std::string>& pubkey_files,
                                  const std::optional<std::filesystem::path>& adapter_library = std::nullopt,
                                  const std::optional<std::filesystem::path>& claims_file = std::nullopt);

}  // namespace kcs::cli
