#include "signed_output.hpp"

#include <iostream>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/report_file.hpp"

namespace kcs::cli {

reports::Signer signer_of(const reports::PublicKey& key) { return {key.keyid(), key.label, key.development}; }

void write_envelope(const std::filesystem::path& folder, const reports::Json& report, const reports::SecretKey& key) {
    const auto envelope = folder / "report.dsse.json";
    reports::write_file_atomically(
        envelope, reports::sign_envelope(reports::report_text(report), reports::kInTotoPayloadType, key));
    std::cout << "signed    " << envelope.string() << "  (key " << key.public_key.keyid()
              << (key.public_key.development ? ", a development key" : "") << ")\n";
}

}  // namespace kcs::cli
