#include "kcs/reports/verify.hpp"

#include <cerrno>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/reports/subjects.hpp"
#include "kcs/spec/strict_json.hpp"
#include "verify_checks.hpp"

namespace kcs::reports {

namespace detail {

void check_statement_types(const Json& statement, Verification& v) {
    if (!statement.is_object()) {
        v.failures.push_back(std::string("statement: a JSON ") + statement.type_name() +
                             ", not a KCS report (an in-toto Statement is a JSON object)");
        return;
    }
    if (statement.value("_type", "") != kStatementType)
        v.failures.push_back("statement: _type is not " + std::string(kStatementType));
    else if (statement.value("predicateType", "") != kPredicateType)
        v.failures.push_back("statement: predicateType is not " + std::string(kPredicateType) +
                             " (a report of another kind or version)");
    else
        v.passed.push_back("statement: in-toto Statement v1 with predicate " + std::string(kPredicateType));
}

void check_catalog(const Json& statement, const VerifyInputs& inputs, Verification& v) {
    const Json* spec = statement.contains("predicate") ? &statement["predicate"] : nullptr;
    if (!spec || !spec->contains("spec") || !(*spec)["spec"].contains("digest")) {
        v.failures.push_back("catalog: the report names no catalog digest");
        return;
    }
    const std::string digest = (*spec)["spec"]["digest"].is_string() ? (*spec)["spec"]["digest"].get<std::string>() : "";
    std::vector<std::pair<std::string, const spec::Catalog*>> by_digest;
    for (const spec::Catalog* c : inputs.catalogs) by_digest.emplace_back(spec::catalog_digest(*c), c);
    const auto carried_with = [&](const std::string& d) -> const spec::Catalog* {
        for (const auto& [carried_digest, c] : by_digest)
            if (carried_digest == d) return c;
        return nullptr;
    };
    v.catalog = carried_with(digest);
    std::string carried;
    for (const auto& [d, c] : by_digest) carried += (carried.empty() ? "" : ", ") + ("spec " + c->spec_version + " " + d);
    if (!v.catalog) {
        v.failures.push_back("catalog: digest " + digest + " is not one this kcs carries (" +
                             (carried.empty() ? std::string("none") : carried) + ")");
        return;
    }
    for (const auto& subject : statement.value("subject", Json::array()))
        if (subject.value("annotations", Json::object()).value("role", "") == "catalog" &&
            "sha256:" + subject.value("digest", Json::object()).value("sha256", "") != digest) {
            v.failures.push_back("catalog: the catalog subject's digest differs from predicate.spec.digest");
            return;
        }
    v.passed.push_back("catalog: spec " + v.catalog->spec_version + " " + digest + ", carried by this kcs");
    // Under an older release, the protocols' catalog supplied parameters: the plan is remade with it.
    if (!(*spec)["spec"].contains("protocols")) return;
    const Json protocols = (*spec)["spec"]["protocols"];
    v.protocols = carried_with(protocols.value("digest", ""));
    if (!v.protocols)
        v.failures.push_back("catalog: the protocols' digest " + protocols.value("digest", Json()).dump() +
                             " is not one this kcs carries");
    else
        v.passed.push_back("catalog: parameters spec " + v.catalog->spec_version + " leaves unstated taken from spec " +
                           v.protocols->spec_version + ", carried by this kcs");
}

void check_subjects(const Json& statement, const VerifyInputs& inputs, Verification& v) {
    const auto compare = [&](const std::optional<std::filesystem::path>& file, const std::string& role) {
        if (!file) return;
        const Json subjects = statement.value("subject", Json::array());
        const Json* found = nullptr;
        for (const auto& subject : subjects)
            if (subject.value("annotations", Json::object()).value("role", "") == role) found = &subject;
        if (!found) {
            v.failures.push_back(role + ": the report has no " + role + " subject to compare " + file->string() + " with");
            return;
        }
        std::string local;
        try {
            local = sha256_file(*file);
        } catch (const std::exception& e) {
            throw ReportReadError(e.what());
        }
        const std::string recorded = found->value("digest", Json::object()).value("sha256", "");
        if (local != recorded)
            v.failures.push_back(role + ": " + file->string() + " has sha256 " + local + ", the report's " + role +
                                 " subject " + recorded);
        else
            v.passed.push_back(role + ": " + file->string() + " is the file the report names (sha256 " + local + ")");
    };
    compare(inputs.adapter_library, "adapter");
    compare(inputs.claims_file, "claims");
}

}  // namespace detail

namespace {

// True when the statement is a report of ours in the schema's shape, which
// every later check (and the signer check) relies on.
bool check_content(const Json& statement, const VerifyInputs& inputs, Verification& v) {
    v.statement = statement;
    detail::check_statement_types(statement, v);
    if (!v.failures.empty()) return false;  // not a report of ours: the other checks would only echo that
    detail::check_schema(statement, v);
    if (!v.failures.empty()) return false;
    try {
        detail::check_catalog(statement, inputs, v);
        detail::check_subjects(statement, inputs, v);
        if (v.catalog) {
            detail::rejudge(statement, v);
            detail::replan(statement, v);
        }
    } catch (const Json::exception& e) {
        // The schema leaves some shapes open; one the checks cannot read is refused, never a crash.
        v.failures.push_back(std::string("content: a field of an unexpected shape (") + e.what() + ")");
    }
    return true;
}

// The report names its signer; the envelope must be signed by that key.
void check_signer_named(const Json& statement, Verification& v) {
    const Json predicate = statement.value("predicate", Json::object());
    const Json signer = predicate.value("signer", Json(nullptr));
    if (!predicate.value("signed", false) || !signer.is_object()) {
        v.failures.push_back("signer: the Statement says it was written unsigned, yet it is in a signed envelope");
        return;
    }
    if (signer.value("keyid", "") != v.signer_keyid) {
        v.failures.push_back("signer: the Statement names key " + signer.value("keyid", "?") +
                             " but the envelope is signed by " + v.signer_keyid);
        return;
    }
    v.passed.push_back("signer: the Statement names the key that signed it");
}

void check_signatures(const Envelope& envelope, const VerifyInputs& inputs, Verification& v) {
    if (envelope.signatures.empty()) {
        v.signature_problem = "the envelope holds no signature";
        return;
    }
    std::set<std::string> seen_keyids, seen_sigs;
    for (const auto& s : envelope.signatures) {
        if (!seen_sigs.insert(s.sig).second || (!s.keyid.empty() && !seen_keyids.insert(s.keyid).second)) {
            v.failures.push_back("signature: the envelope holds a duplicated signature (keyid " + s.keyid +
                                 "); a signer signs once");
            return;
        }
    }
    if (inputs.keys.empty()) {
        v.signature_problem = "no trusted public key was given to check it with";
        return;
    }
    bool broken = false;  // a trusted key's signature that does not verify
    for (const auto& s : envelope.signatures)
        for (const auto& key : inputs.keys) {
            if (!s.keyid.empty() && s.keyid != key.keyid()) continue;
            if (!signature_verifies(envelope, s, key)) {
                broken = broken || s.keyid == key.keyid();
                continue;
            }
            v.signature_valid = true;
            v.signer_keyid = key.keyid();
            v.signer_label = key.label;
            v.signer_development = key.development;
            v.passed.push_back("signature: Ed25519 over the PAE bytes verifies with key " + key.keyid() +
                               (key.label.empty() ? "" : " (" + key.label + ")"));
            return;
        }
    std::string keyids, trusted;
    for (const auto& s : envelope.signatures) keyids += (keyids.empty() ? "" : ", ") + (s.keyid.empty() ? "(none)" : s.keyid);
    for (const auto& key : inputs.keys) trusted += (trusted.empty() ? "" : ", ") + key.keyid();
    v.signature_problem = "no signature verifies over the PAE bytes with a trusted key (envelope keyids: " + keyids +
                          "; trusted: " + trusted + ")";
    // Signed by a trusted key, yet not verifying: the payload or the
    // signature changed after signing. Nothing in it is worth checking.
    if (broken)
        v.failures.push_back("signature: the signature of trusted key " + keyids +
                             " does not match the payload: it was changed after signing; its content was not checked");
}

}  // namespace

Verification verify_statement(const Json& statement, const VerifyInputs& inputs) {
    Verification v;
    v.signature_problem = "a bare Statement, not a signed envelope";
    check_content(statement, inputs, v);
    return v;
}

Verification verify_envelope_text(std::string_view text, const VerifyInputs& inputs) {
    Verification v;
    v.signed_envelope = true;
    Envelope envelope;
    try {
        envelope = parse_envelope(text);
    } catch (const EnvelopeError& e) {
        v.signature_problem = "not checked: the envelope is broken";
        v.failures.push_back(std::string("envelope: ") + e.what());
        return v;
    }
    v.passed.push_back("envelope: a well-formed DSSE envelope");
    if (envelope.payload_type != kInTotoPayloadType) {
        v.signature_problem = "not checked: the payload is of another type";
        v.failures.push_back("envelope: payloadType is \"" + envelope.payload_type + "\", not \"" +
                             std::string(kInTotoPayloadType) + "\"");
        return v;
    }
    check_signatures(envelope, inputs, v);
    if (!v.failures.empty()) return v;
    Json statement;
    try {
        statement = spec::parse_json_strict(envelope.payload);
    } catch (const spec::JsonError& e) {
        v.failures.push_back(std::string("payload: ") + e.what());
        return v;
    }
    if (check_content(statement, inputs, v) && v.signature_valid) check_signer_named(statement, v);
    return v;
}

Verification verify_report_file(const std::filesystem::path& file, const VerifyInputs& inputs) {
    const std::string text = read_whole_file<ReportReadError>(file);
    Json doc;
    try {
        doc = spec::parse_json_strict(text);
    } catch (const spec::JsonError& e) {
        throw ReportReadError(file.string() + ": " + e.what());
    }
    if (is_envelope(doc)) return verify_envelope_text(text, inputs);
    return verify_statement(doc, inputs);
}

}  // namespace kcs::reports
