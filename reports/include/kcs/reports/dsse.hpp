// DSSE envelopes (github.com/secure-systems-lab/dsse, protocol v1) signed
// with Ed25519 over the pre-authentication encoding:
//   PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body
// LEN in ASCII decimal, type and body as bytes. The envelope is
//   {"payload": B64(body), "payloadType": type, "signatures": [{"keyid": K, "sig": B64(sig)}]}
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/reports/keys.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

inline constexpr std::string_view kInTotoPayloadType = "application/vnd.in-toto+json";

std::string pae(std::string_view payload_type, std::string_view payload);

struct EnvelopeSignature {
    std::string keyid;
    std::string sig;  // the 64 signature bytes, decoded
};

struct Envelope {
    std::string payload_type;
    std::string payload;  // decoded
    std::vector<EnvelopeSignature> signatures;
};

// An envelope that is not one: not JSON, a missing or mistyped field,
// non-canonical base64, an unknown field, a signature of the wrong size.
class EnvelopeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The envelope text (compact JSON, one line) for `payload` signed by `key`.
std::string sign_envelope(std::string_view payload, std::string_view payload_type, const SecretKey& key);

// Whether a JSON document is meant as an envelope (it has a payload and
// signatures), rather than a bare Statement: the rule every reader applies.
bool is_envelope(const spec::Json& document);

// Strict parse: throws EnvelopeError saying what is wrong.
Envelope parse_envelope(std::string_view text);

// Whether `signature` is `key`'s Ed25519 signature over PAE(type, payload).
bool signature_verifies(const Envelope& envelope, const EnvelopeSignature& signature, const PublicKey& key);

// Standard base64 with padding; decode refuses anything but the canonical form.
std::string base64_encode(std::string_view bytes);
std::string base64_decode(std::string_view text);  // throws EnvelopeError

}  // namespace kcs::reports
