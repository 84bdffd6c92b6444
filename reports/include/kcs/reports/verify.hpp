// Verification of a signed report (reports.md, "Signing"; spec/SPEC.md
// section 12): the DSSE signature over the PAE bytes by a trusted key, the
// payload type, the Statement type and predicate type, the report schema,
// the catalog digest against the catalogs this kcs carries, subject digests
// against local files when given; then everything that can be remade from
// the catalog is remade with the code that wrote the report: every case
// verdict from its evidence and the bound the tolerance model gives
// (rejudge.cpp), the plan, the instance records and verdicts, the summary
// and the certificate, the signer's kind from the trusted key file
// (replan.cpp). Each check that fails adds one failure saying what failed,
// naming the instance and the field.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

struct VerifyInputs {
    std::vector<PublicKey> keys;               // trusted keys: one valid signature by one of them suffices
    std::vector<const spec::Catalog*> catalogs;  // the catalogs this kcs carries
    std::optional<std::filesystem::path> adapter_library;  // compared with the adapter subject
    std::optional<std::filesystem::path> claims_file;      // compared with the claims subject
};

struct Verification {
    bool signed_envelope = false;  // the input was a DSSE envelope (not a bare Statement)
    bool signature_valid = false;  // a trusted key's signature verifies over the PAE bytes
    std::string signature_problem;  // why not, in words (a bare Statement, no trusted key's signature, ...)
    std::string signer_keyid;       // of the key that verified
    std::string signer_label;
    bool signer_development = true;  // as the trusted key file says; a development key never certifies
    // Each other check that failed, in words: a broken envelope, the
    // content (types, schema, catalog, subjects, verdicts, summary), or a
    // Statement whose named signer is not the key that signed it. A report
    // with failures is never shown, whatever its signature.
    std::vector<std::string> failures;
    std::vector<std::string> passed;    // each check that passed, in words
    Json statement;                     // the Statement; null when the payload is not JSON
    const spec::Catalog* catalog = nullptr;  // the carried catalog whose digest the report names
    const spec::Catalog* protocols = nullptr;  // the carried one spec.protocols names, if it names one

    bool valid() const { return signature_valid && failures.empty(); }
};

// The file cannot be read, or is not JSON at all (exit code 2 in kcs).
class ReportReadError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A DSSE envelope (report.dsse.json): every check.
Verification verify_envelope_text(std::string_view text, const VerifyInputs& inputs);

// A bare Statement (report.json): every check but the signature, which is
// recorded as missing (signature_valid stays false, signature_problem says so).
Verification verify_statement(const Json& statement, const VerifyInputs& inputs);

// Reads the file and verifies it as an envelope or, when it holds a bare
// Statement, as that. Throws ReportReadError when it cannot be read or parsed.
Verification verify_report_file(const std::filesystem::path& file, const VerifyInputs& inputs);

}  // namespace kcs::reports
