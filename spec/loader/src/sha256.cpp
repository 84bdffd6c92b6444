#include "kcs/spec/sha256.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace kcs {

struct Sha256Hasher::State {
    EVP_MD_CTX* context = nullptr;
};

namespace {

void require(int openssl_result, const char* step) {
    if (openssl_result != 1) throw std::runtime_error(std::string("SHA-256: OpenSSL failed at ") + step);
}

}  // namespace

Sha256Hasher::Sha256Hasher() : state_(std::make_unique<State>()) {
    state_->context = EVP_MD_CTX_new();
    if (!state_->context) throw std::runtime_error("SHA-256: out of memory for the OpenSSL context");
    require(EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr), "EVP_DigestInit_ex");
}

Sha256Hasher::~Sha256Hasher() { EVP_MD_CTX_free(state_->context); }

void Sha256Hasher::update(std::span<const std::byte> bytes) {
    require(EVP_DigestUpdate(state_->context, bytes.data(), bytes.size()), "EVP_DigestUpdate");
}

void Sha256Hasher::update(std::string_view bytes) { update(std::as_bytes(std::span(bytes.data(), bytes.size()))); }

Sha256 Sha256Hasher::finish() {
    Sha256 hash{};
    unsigned int length = 0;
    require(EVP_DigestFinal_ex(state_->context, hash.data(), &length), "EVP_DigestFinal_ex");
    if (length != hash.size()) throw std::runtime_error("SHA-256: OpenSSL returned a digest of another length");
    return hash;
}

Sha256 sha256(std::span<const std::byte> bytes) {
    Sha256Hasher hasher;
    hasher.update(bytes);
    return hasher.finish();
}

Sha256 sha256(std::string_view bytes) { return sha256(std::as_bytes(std::span(bytes.data(), bytes.size()))); }

std::string hex(const Sha256& hash) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    text.reserve(2 * hash.size());
    for (const unsigned char b : hash) {
        text += kDigits[b >> 4];
        text += kDigits[b & 0xF];
    }
    return text;
}

std::string sha256_digest(std::string_view bytes) { return "sha256:" + hex(sha256(bytes)); }

}  // namespace kcs
