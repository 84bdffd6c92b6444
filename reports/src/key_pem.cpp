#include "key_pem.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <sstream>

#include "kcs/reports/keys.hpp"

namespace kcs::reports::pem {

namespace {

using Bio = std::unique_ptr<BIO, decltype(&BIO_free)>;
using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

Bio reading(const std::string& text) {
    return Bio(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), BIO_free);
}

// "label: X" and "development: true|false" lines before the block.
void read_explanations(const std::string& text, Fields& out) {
    std::istringstream lines(text.substr(0, text.find("-----BEGIN")));
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("label: ", 0) == 0) out.label = line.substr(7);
        if (line == "development: false") out.development = false;
    }
}

Fields fields_of(const Key& key, const std::string& text, const std::filesystem::path& file, bool secret) {
    const char* kind = secret ? "secret" : "public";
    if (!key) throw KeyFileError(file.string() + ": not a PEM " + std::string(kind) + " key OpenSSL can read");
    if (EVP_PKEY_get_id(key.get()) != EVP_PKEY_ED25519)
        throw KeyFileError(file.string() + ": a PEM key of another algorithm (KCS signs with Ed25519)");
    Fields out;
    std::size_t size = out.bytes.size();
    const int ok = secret ? EVP_PKEY_get_raw_private_key(key.get(), out.bytes.data(), &size)
                          : EVP_PKEY_get_raw_public_key(key.get(), out.bytes.data(), &size);
    if (ok != 1 || size != out.bytes.size())
        throw KeyFileError(file.string() + ": OpenSSL gave no 32-byte Ed25519 " + std::string(kind) + " key");
    read_explanations(text, out);
    return out;
}

std::string explanations(const Fields& key) {
    std::string out;
    if (!key.label.empty() && key.label.find('\n') == std::string::npos) out += "label: " + key.label + "\n";
    return out + "development: " + (key.development ? "true" : "false") + "\n";
}

std::string written(const Key& key, bool secret) {
    if (!key) throw std::runtime_error("OpenSSL could not make an Ed25519 key of 32 bytes");
    Bio out(BIO_new(BIO_s_mem()), BIO_free);
    const int ok = secret ? PEM_write_bio_PrivateKey(out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr)
                          : PEM_write_bio_PUBKEY(out.get(), key.get());
    if (ok != 1) throw std::runtime_error("OpenSSL could not write an Ed25519 key as PEM");
    char* data = nullptr;
    const long size = BIO_get_mem_data(out.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

bool is_pem(const std::string& text) { return text.find("-----BEGIN ") != std::string::npos; }

Fields read_secret(const std::string& text, const std::filesystem::path& file) {
    const Bio in = reading(text);
    return fields_of(Key(PEM_read_bio_PrivateKey(in.get(), nullptr, nullptr, nullptr), EVP_PKEY_free), text, file, true);
}

Fields read_public(const std::string& text, const std::filesystem::path& file) {
    const Bio in = reading(text);
    return fields_of(Key(PEM_read_bio_PUBKEY(in.get(), nullptr, nullptr, nullptr), EVP_PKEY_free), text, file, false);
}

std::string write_secret(const Fields& key) {
    const Key k(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, key.bytes.data(), key.bytes.size()),
                EVP_PKEY_free);
    return explanations(key) + written(k, true);
}

std::string write_public(const Fields& key) {
    const Key k(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, key.bytes.data(), key.bytes.size()),
                EVP_PKEY_free);
    return explanations(key) + written(k, false);
}

}  // namespace kcs::reports::pem
