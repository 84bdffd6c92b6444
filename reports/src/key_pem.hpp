// Ed25519 keys as PEM (RFC 7468), through OpenSSL: PKCS#8 "PRIVATE KEY"
// and SubjectPublicKeyInfo "PUBLIC KEY", as `openssl genpkey -algorithm
// ed25519` and `openssl pkey -pubout` write them, so that other tools read
// KCS's keys and KCS reads theirs. The label and the development mark
// ride as explanatory text before the block ("label: ACME lab",
// "development: false"), which RFC 7468 section 5.2 lets parsers skip.
// Internal to keys.cpp.
#pragma once

#include <array>
#include <filesystem>
#include <string>

namespace kcs::reports::pem {

bool is_pem(const std::string& text);

struct Fields {
    std::array<unsigned char, 32> bytes{};  // the seed of a secret key, or a public key
    std::string label;
    bool development = true;  // a key that does not say counts as a development key
};

// Throw KeyFileError naming `file` for anything but an Ed25519 key of that kind.
Fields read_secret(const std::string& text, const std::filesystem::path& file);
Fields read_public(const std::string& text, const std::filesystem::path& file);

std::string write_secret(const Fields& key);
std::string write_public(const Fields& key);

}  // namespace kcs::reports::pem
