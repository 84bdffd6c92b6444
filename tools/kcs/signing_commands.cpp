// kcs keygen, kcs sign and kcs verify: the key pairs reports are signed
// with, signing a report written elsewhere, and checking a signed report
// (reports/include/kcs/reports/{keys,dsse,verify}.hpp).
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/reports/verify.hpp"
#include "kcs/spec/strict_json.hpp"
#include "rerun.hpp"
#include "run_setup.hpp"
#include "trusted_inputs.hpp"

namespace kcs::cli {

namespace {

namespace fs = std::filesystem;

struct KeygenOptions {
    std::string out;
    std::string label;
    bool development = false;
    std::string format = "json";
};

void add_keygen(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<KeygenOptions>();
    auto* cmd = app.add_subcommand("keygen", "Make an Ed25519 key pair for signing reports");
    cmd->add_option("--out", o->out, "PREFIX: writes PREFIX.key (secret, mode 0600) and PREFIX.pub")->required();
    cmd->add_option("--label", o->label, "Whose key this is, as reports and verifiers show it (e.g. ACME GPU lab)");
    cmd->add_flag("--development", o->development,
                  "Mark it a development key: reports it signs say so and are never certificates");
    cmd->add_option("--format", o->format,
                    "json (KCS's own) or pem (PKCS#8 and SubjectPublicKeyInfo, as OpenSSL reads and writes "
                    "Ed25519 keys); every command reads either")
        ->check(CLI::IsMember({"json", "pem"}))
        ->capture_default_str();
    cmd->footer("The secret key is never printed. Existing files are never overwritten. A PEM key made elsewhere "
                "(openssl genpkey -algorithm ed25519) serves as it is: add a line 'label: NAME' before its block "
                "to name it, and 'development: false' unless it is a development key.\n"
                "Exit 0 when written, 2 when a file exists or cannot be written.");
    cmd->callback([&exit_code, o] {
        const std::string label = o->label.empty() ? (o->development ? "development key" : "unlabelled key") : o->label;
        const auto key = reports::generate_key(label, o->development);
        // KeyFileError: exit 2 in main
        reports::write_key_pair(key, o->out, o->format == "pem" ? reports::KeyFormat::pem : reports::KeyFormat::json);
        std::cout << "secret key  " << o->out << ".key  (mode 0600: keep it private)\n"
                  << "public key  " << o->out << ".pub  (give it to verifiers)\n"
                  << "keyid       " << key.public_key.keyid() << "\n"
                  << "label       " << label << (o->development ? "  (development key)" : "") << "\n";
        exit_code = 0;
    });
}

// report.json -> report.dsse.json; anything else gets .dsse.json appended.
fs::path envelope_path(const fs::path& statement) {
    fs::path out = statement;
    if (out.extension() == ".json") out.replace_extension();
    out += ".dsse.json";
    return out;
}

struct SignOptions {
    std::string statement;
    std::string key;
    std::string out;
};

void add_sign(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<SignOptions>();
    auto* cmd = app.add_subcommand("sign", "Sign a report (report.json) into a DSSE envelope");
    cmd->add_option("STATEMENT", o->statement, "The report: an in-toto Statement written by kcs certify")->required();
    cmd->add_option("--key", o->key, "The secret key file (kcs keygen)")->required();
    cmd->add_option("--out", o->out, "The envelope file (default: report.dsse.json beside report.json)");
    cmd->footer("The report must name this key as its signer (kcs certify --signer PUB, or --key).\n"
                "Exit 0 when signed, 2 on an unreadable report or key, or a report that names another signer.");
    cmd->callback([&exit_code, o] {
        const auto key = reports::read_secret_key(o->key);
        const std::string text = reports::read_whole_file<reports::ReportReadError>(o->statement);
        reports::Json statement;
        try {
            statement = spec::parse_json_strict(text);
        } catch (const spec::JsonError& e) {
            throw reports::ReportReadError(o->statement + ": " + e.what());
        }
        if (!statement.is_object() || statement.value("predicateType", "") != reports::kPredicateType)
            throw reports::ReportReadError(o->statement + ": not a KCS report (predicateType is not " +
                                           std::string(reports::kPredicateType) + ")");
        const auto signer = statement["predicate"].value("signer", reports::Json(nullptr));
        if (!signer.is_object())
            throw reports::ReportReadError(o->statement +
                                           ": the report was written unsigned and names no signer; run kcs certify "
                                           "with --key, or with --signer PUB to sign it here later");
        if (signer.value("keyid", "") != key.public_key.keyid())
            throw reports::ReportReadError(o->statement + ": the report names signer " + signer.value("keyid", "?") +
                                           ", not this key (" + key.public_key.keyid() + ")");
        const fs::path out = o->out.empty() ? envelope_path(o->statement) : fs::path(o->out);
        reports::write_file_atomically(out, reports::sign_envelope(text, reports::kInTotoPayloadType, key));
        std::cout << "signed  " << out.string() << "  (key " << key.public_key.keyid() << ")\n";
        exit_code = 0;
    });
}

struct VerifyOptions {
    std::string envelope;
    std::vector<std::string> pubkeys;
    std::string adapter;
    std::string claims;
    bool quiet = false;
    std::size_t rerun = 0;
    std::uint64_t rerun_seed = 1;
};

void add_verify(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<VerifyOptions>();
    auto* cmd = app.add_subcommand("verify", "Check a signed report: signature, format, catalog, subjects and verdicts");
    cmd->add_option("ENVELOPE", o->envelope, "The signed report (report.dsse.json)")->required();
    cmd->add_option("--pubkey", o->pubkeys, "A trusted public key file (repeatable; one valid signature suffices)")
        ->required();
    cmd->add_option("--adapter", o->adapter,
                    "The adapter library (a name or a path) to compare with the report's adapter subject");
    cmd->add_option("--claims", o->claims, "The claims file to compare with the report's claims subject");
    cmd->add_flag("--quiet,-q", o->quiet, "Print only what failed and the conclusion");
    cmd->add_option("--rerun", o->rerun,
                    "After the checks pass, run N random cases of the report again on --adapter and compare them "
                    "(the verdict; the evidence bit for bit where the report claims deterministic: true)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--rerun-seed", o->rerun_seed, "Picks the cases --rerun runs")->capture_default_str();
    cmd->footer("Checks the Ed25519 signature over the DSSE PAE bytes by a trusted key, the payload type, the "
                "Statement and predicate types, the report schema, that the catalog digest is one this kcs carries, "
                "the subject digests against the files given, and re-judges every recorded verdict from its "
                "evidence with the catalog's tolerance models, remakes the plan and the summary from the catalog, "
                "and takes the signer's kind from the trusted key file. What it cannot prove (evidence a key "
                "holder fabricated consistently) --rerun checks: see spec/SPEC.md section 12.\n"
                "Exit 0 valid, 1 invalid (each failed check is printed) or a rerun case that differs, 2 unreadable "
                "input (report or key) or --rerun without --adapter.");
    cmd->callback([&exit_code, o] {
        if (o->rerun && o->adapter.empty())
            throw CLI::ValidationError("--rerun", "needs --adapter: the library to run the cases on");
        std::optional<fs::path> adapter, claims;
        if (!o->adapter.empty()) adapter = host::resolve_adapter(o->adapter);
        if (!o->claims.empty()) claims = fs::path(o->claims);
        const TrustedInputs trusted = load_trusted_inputs(o->pubkeys, adapter, claims);
        const reports::Verification v = reports::verify_report_file(o->envelope, trusted.inputs);
        if (!o->quiet)
            for (const auto& p : v.passed) std::cout << "ok      " << p << "\n";
        if (!v.signature_valid) std::cout << "FAILED  signature: " << v.signature_problem << "\n";
        for (const auto& f : v.failures) std::cout << "FAILED  " << f << "\n";
        if (v.valid()) {
            std::cout << "VALID   " << o->envelope << ": signed by " << v.signer_keyid
                      << (v.signer_label.empty() ? "" : " (" + v.signer_label + ")")
                      << (v.signer_development ? ", a development key: not a certificate" : "") << "\n";
            exit_code = 0;
            if (o->rerun)
                exit_code = rerun_cases(v, {o->rerun, o->adapter, o->rerun_seed, kDefaultTimeoutSeconds});
        } else {
            const std::size_t failed = v.failures.size() + (v.signature_valid ? 0 : 1);
            std::cout << "INVALID " << o->envelope << ": " << failed << " check" << (failed == 1 ? "" : "s")
                      << " failed\n";
            exit_code = 1;
        }
    });
}

}  // namespace

void add_signing_commands(CLI::App& app, int& exit_code) {
    add_keygen(app, exit_code);
    add_sign(app, exit_code);
    add_verify(app, exit_code);
}

}  // namespace kcs::cli
