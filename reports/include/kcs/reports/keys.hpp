// Ed25519 key pairs for signing reports (libsodium). Key files are small
// JSON documents:
//   PREFIX.key  {"kcs_key": "ed25519-secret-v1", "seed": B64, "public_key": B64,
//                "label": TEXT, "development": BOOL}                 mode 0600; never printed
//   PREFIX.pub  {"kcs_key": "ed25519-public-v1", "public_key": B64, "keyid": HEX,
//                "label": TEXT, "development": BOOL}
// B64 is standard base64 with padding. Or, with KeyFormat::pem, PEM as
// other tools read and write Ed25519 keys (PKCS#8 "PRIVATE KEY" and
// SubjectPublicKeyInfo "PUBLIC KEY", e.g. `openssl genpkey -algorithm
// ed25519`), the label and development mark as "label: TEXT" and
// "development: BOOL" lines before the block; readers take either format,
// whichever the file holds. The label says whose key it is; a
// development key (the one tools/certify makes) signs reports that say so
// and are never certificates. The keyid is
// SHA-256 of the 32 public key bytes, in hex: a hint for choosing a key,
// never a source of trust.
#pragma once

#include <array>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kcs::reports {

// A key file that cannot be used: unreadable, malformed, the wrong kind,
// or (secret keys) readable by others. what() names the file and the problem.
class KeyFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct PublicKey {
    std::array<unsigned char, 32> bytes{};
    std::string label;
    bool development = false;
    std::string keyid() const;  // hex SHA-256 of bytes
};

struct SecretKey {
    std::array<unsigned char, 32> seed{};
    PublicKey public_key;
};

// A fresh key pair from libsodium's generator.
SecretKey generate_key(std::string label, bool development);
// The key pair of a 32-byte seed (RFC 8032's "secret key").
SecretKey key_from_seed(const std::array<unsigned char, 32>& seed, std::string label, bool development);

// Ed25519 (RFC 8032, pure): the 64-byte signature of `message`, and its check.
std::string ed25519_sign(const SecretKey& key, std::string_view message);
bool ed25519_verify(const PublicKey& key, std::string_view message, std::string_view signature);

enum class KeyFormat { json, pem };

// Writes PREFIX.key (created with mode 0600) and PREFIX.pub. Refuses, with
// KeyFileError, to overwrite either file.
void write_key_pair(const SecretKey& key, const std::filesystem::path& prefix, KeyFormat format = KeyFormat::json);

SecretKey read_secret_key(const std::filesystem::path& file);  // also refuses a file others may read
PublicKey read_public_key(const std::filesystem::path& file);

}  // namespace kcs::reports
