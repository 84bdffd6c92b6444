// What kcs certify and kcs merge share when they are given a key: the
// signer the report names, and the DSSE envelope written beside it.
#pragma once

#include <filesystem>

#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"

namespace kcs::cli {

reports::Signer signer_of(const reports::PublicKey& key);

// Signs report.json's bytes into FOLDER/report.dsse.json and says so.
void write_envelope(const std::filesystem::path& folder, const reports::Json& report, const reports::SecretKey& key);

}  // namespace kcs::cli
