#include "kcs/reports/dsse.hpp"

#include <sodium.h>

#include <algorithm>

#include "kcs/spec/catalog.hpp"
#include "kcs/spec/strict_json.hpp"

namespace kcs::reports {

namespace {

const unsigned char* bytes_of(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }

std::string required_string(const spec::Json& object, const char* field, const std::string& where) {
    if (!object.contains(field)) throw EnvelopeError(where + " has no \"" + field + "\"");
    if (!object.at(field).is_string()) throw EnvelopeError(where + " \"" + field + "\" is not a string");
    return object.at(field).get<std::string>();
}

void refuse_unknown_fields(const spec::Json& object, std::initializer_list<const char*> known, const std::string& where) {
    for (const auto& item : object.items()) {
        const std::string& name = item.key();
        if (std::none_of(known.begin(), known.end(), [&](const char* k) { return name == k; }))
            throw EnvelopeError(where + " has an unknown field \"" + name + "\"");
    }
}

}  // namespace

std::string pae(std::string_view payload_type, std::string_view payload) {
    std::string out = "DSSEv1 ";
    out += std::to_string(payload_type.size());
    out += ' ';
    out += payload_type;
    out += ' ';
    out += std::to_string(payload.size());
    out += ' ';
    out += payload;
    return out;
}

std::string base64_encode(std::string_view bytes) {
    std::string out(sodium_base64_ENCODED_LEN(bytes.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
    sodium_bin2base64(out.data(), out.size(), bytes_of(bytes), bytes.size(), sodium_base64_VARIANT_ORIGINAL);
    out.resize(out.size() - 1);  // the terminating NUL
    return out;
}

std::string base64_decode(std::string_view text) {
    std::string out(text.size() / 4 * 3 + 3, '\0');
    std::size_t length = 0;
    const char* end = nullptr;
    if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                          &length, &end, sodium_base64_VARIANT_ORIGINAL) != 0 ||
        end != text.data() + text.size())
        throw EnvelopeError("invalid base64");
    out.resize(length);
    // One text per byte string: a changed padding bit must not go unnoticed.
    if (base64_encode(out) != text) throw EnvelopeError("non-canonical base64");
    return out;
}

std::string sign_envelope(std::string_view payload, std::string_view payload_type, const SecretKey& key) {
    const spec::Json envelope{
        {"payload", base64_encode(payload)},
        {"payloadType", payload_type},
        {"signatures",
         {{{"keyid", key.public_key.keyid()}, {"sig", base64_encode(ed25519_sign(key, pae(payload_type, payload)))}}}}};
    return envelope.dump() + "\n";
}

bool is_envelope(const spec::Json& document) {
    return document.is_object() && document.contains("payload") && document.contains("signatures");
}

Envelope parse_envelope(std::string_view text) {
    spec::Json doc;
    try {
        doc = spec::parse_json_strict(text);
    } catch (const spec::JsonError& e) {
        throw EnvelopeError(e.what());
    }
    if (!doc.is_object()) throw EnvelopeError("the envelope is not a JSON object");
    refuse_unknown_fields(doc, {"payload", "payloadType", "signatures"}, "the envelope");
    Envelope envelope;
    envelope.payload_type = required_string(doc, "payloadType", "the envelope");
    const std::string payload = required_string(doc, "payload", "the envelope");
    try {
        envelope.payload = base64_decode(payload);
    } catch (const EnvelopeError& e) {
        throw EnvelopeError(std::string("\"payload\": ") + e.what());
    }
    if (!doc.contains("signatures") || !doc.at("signatures").is_array())
        throw EnvelopeError("the envelope has no \"signatures\" array");
    std::size_t index = 0;
    for (const auto& entry : doc.at("signatures")) {
        const std::string where = "signature " + std::to_string(index++);
        if (!entry.is_object()) throw EnvelopeError(where + " is not an object");
        refuse_unknown_fields(entry, {"keyid", "sig"}, where);
        EnvelopeSignature s;
        s.keyid = entry.contains("keyid") ? required_string(entry, "keyid", where) : "";
        const std::string sig = required_string(entry, "sig", where);
        try {
            s.sig = base64_decode(sig);
        } catch (const EnvelopeError& e) {
            throw EnvelopeError(where + " \"sig\": " + e.what());
        }
        if (s.sig.size() != crypto_sign_BYTES)
            throw EnvelopeError(where + " holds " + std::to_string(s.sig.size()) + " bytes, not an Ed25519 signature's " +
                                std::to_string(crypto_sign_BYTES));
        envelope.signatures.push_back(std::move(s));
    }
    return envelope;
}

bool signature_verifies(const Envelope& envelope, const EnvelopeSignature& signature, const PublicKey& key) {
    return ed25519_verify(key, pae(envelope.payload_type, envelope.payload), signature.sig);
}

}  // namespace kcs::reports
