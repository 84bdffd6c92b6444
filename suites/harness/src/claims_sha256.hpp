// "sha256:HEX" of some bytes, the form every digest in a report takes.
// Private to the harness.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <sodium.h>

namespace kcs::harness::detail {

inline std::string sha256_digest(std::string_view bytes) {
    // sodium_init() is idempotent and thread-safe; crypto_hash_sha256 itself
    // does not need it, but libsodium asks for it before any other call.
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    unsigned char hash[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(hash, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    char hex[2 * crypto_hash_sha256_BYTES + 1];
    sodium_bin2hex(hex, sizeof hex, hash, sizeof hash);
    return std::string("sha256:") + hex;
}

}  // namespace kcs::harness::detail
