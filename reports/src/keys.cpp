#include "kcs/reports/keys.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/spec/catalog.hpp"
#include "kcs/spec/sha256.hpp"
#include "kcs/spec/strict_json.hpp"
#include "key_pem.hpp"

namespace kcs::reports {

namespace {

constexpr const char* kSecretKind = "ed25519-secret-v1";
constexpr const char* kPublicKind = "ed25519-public-v1";

void init_sodium() {
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
}

std::string as_text(const unsigned char* bytes, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(bytes), size);
}

template <std::size_t N>
std::array<unsigned char, N> decode_exactly(const spec::Json& doc, const char* field, const std::filesystem::path& file) {
    if (!doc.contains(field) || !doc.at(field).is_string())
        throw KeyFileError(file.string() + ": no \"" + std::string(field) + "\" string");
    std::string bytes;
    try {
        bytes = base64_decode(doc.at(field).get<std::string>());
    } catch (const EnvelopeError& e) {
        throw KeyFileError(file.string() + ": \"" + field + "\" is not base64: " + e.what());
    }
    if (bytes.size() != N)
        throw KeyFileError(file.string() + ": \"" + field + "\" holds " + std::to_string(bytes.size()) +
                           " bytes, not " + std::to_string(N));
    std::array<unsigned char, N> out{};
    std::memcpy(out.data(), bytes.data(), N);
    return out;
}

spec::Json read_key_json(const std::filesystem::path& file, const char* kind) {
    const std::string text = read_whole_file<KeyFileError>(file);
    spec::Json doc;
    try {
        doc = spec::parse_json_strict(text, {.max_bytes = 1 << 16});
    } catch (const spec::JsonError& e) {
        throw KeyFileError(file.string() + ": not a key file (" + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("kcs_key") || doc.at("kcs_key") != kind)
        throw KeyFileError(file.string() + ": not a " + std::string(kind) + " key file (\"kcs_key\" must be \"" +
                           kind + "\")");
    return doc;
}

std::string label_of(const spec::Json& doc) {
    return doc.contains("label") && doc.at("label").is_string() ? doc.at("label").get<std::string>() : "";
}

// A key that does not say what it is for counts as a development key.
bool development_of(const spec::Json& doc) {
    return !doc.contains("development") || !doc.at("development").is_boolean() || doc.at("development").get<bool>();
}

// Creates `file` with mode 0600 (never wider, whatever the umask) and writes `text`.
void write_new_file(const std::filesystem::path& file, const std::string& text, mode_t mode) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0)
        throw KeyFileError(file.string() + ": cannot create" + (errno == EEXIST ? " (it exists; keys are never overwritten)"
                                                                               : std::string(": ") + std::strerror(errno)));
    bool ok = ::fchmod(fd, mode) == 0;
    std::size_t written = 0;
    while (ok && written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        ok = n > 0;
        if (ok) written += static_cast<std::size_t>(n);
    }
    ok = (::close(fd) == 0) && ok;
    if (!ok) throw KeyFileError(file.string() + ": write failed: " + std::strerror(errno));
}

}  // namespace

std::string PublicKey::keyid() const { return hex(sha256(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()))); }

SecretKey key_from_seed(const std::array<unsigned char, 32>& seed, std::string label, bool development) {
    init_sodium();
    SecretKey key;
    key.seed = seed;
    unsigned char secret[crypto_sign_SECRETKEYBYTES];
    crypto_sign_seed_keypair(key.public_key.bytes.data(), secret, key.seed.data());
    sodium_memzero(secret, sizeof secret);
    key.public_key.label = std::move(label);
    key.public_key.development = development;
    return key;
}

SecretKey generate_key(std::string label, bool development) {
    init_sodium();
    std::array<unsigned char, 32> seed{};
    randombytes_buf(seed.data(), seed.size());
    SecretKey key = key_from_seed(seed, std::move(label), development);
    sodium_memzero(seed.data(), seed.size());
    return key;
}

std::string ed25519_sign(const SecretKey& key, std::string_view message) {
    init_sodium();
    unsigned char public_key[crypto_sign_PUBLICKEYBYTES];
    unsigned char secret[crypto_sign_SECRETKEYBYTES];
    crypto_sign_seed_keypair(public_key, secret, key.seed.data());
    unsigned char signature[crypto_sign_BYTES];
    crypto_sign_detached(signature, nullptr, reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                         secret);
    sodium_memzero(secret, sizeof secret);
    return as_text(signature, sizeof signature);
}

bool ed25519_verify(const PublicKey& key, std::string_view message, std::string_view signature) {
    init_sodium();
    if (signature.size() != crypto_sign_BYTES) return false;
    return crypto_sign_verify_detached(reinterpret_cast<const unsigned char*>(signature.data()),
                                       reinterpret_cast<const unsigned char*>(message.data()), message.size(),
                                       key.bytes.data()) == 0;
}

void write_key_pair(const SecretKey& key, const std::filesystem::path& prefix, KeyFormat format) {
    const std::filesystem::path secret_file = prefix.string() + ".key";
    const std::filesystem::path public_file = prefix.string() + ".pub";
    for (const auto& f : {secret_file, public_file})
        if (std::filesystem::exists(f)) throw KeyFileError(f.string() + ": exists; keys are never overwritten");
    if (format == KeyFormat::pem) {
        const pem::Fields secret{key.seed, key.public_key.label, key.public_key.development};
        const pem::Fields pub{key.public_key.bytes, key.public_key.label, key.public_key.development};
        write_new_file(secret_file, pem::write_secret(secret), 0600);
        write_new_file(public_file, pem::write_public(pub), 0644);
        return;
    }
    const std::string public_b64 = base64_encode(as_text(key.public_key.bytes.data(), key.public_key.bytes.size()));
    const spec::Json secret{{"kcs_key", kSecretKind},
                            {"seed", base64_encode(as_text(key.seed.data(), key.seed.size()))},
                            {"public_key", public_b64},
                            {"label", key.public_key.label},
                            {"development", key.public_key.development}};
    const spec::Json pub{{"kcs_key", kPublicKind},
                         {"public_key", public_b64},
                         {"keyid", key.public_key.keyid()},
                         {"label", key.public_key.label},
                         {"development", key.public_key.development}};
    write_new_file(secret_file, secret.dump(2) + "\n", 0600);
    write_new_file(public_file, pub.dump(2) + "\n", 0644);
}

SecretKey read_secret_key(const std::filesystem::path& file) {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) throw KeyFileError(file.string() + ": cannot read: " + std::strerror(errno));
    if ((info.st_mode & 077) != 0) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
        throw KeyFileError(file.string() + ": a secret key others may read or write (mode " + mode +
                           "); run chmod 600 on it, or make a new key if it may have leaked");
    }
    if (const std::string text = read_whole_file<KeyFileError>(file); pem::is_pem(text)) {
        const pem::Fields fields = pem::read_secret(text, file);
        return key_from_seed(fields.bytes, fields.label, fields.development);
    }
    const spec::Json doc = read_key_json(file, kSecretKind);
    SecretKey key = key_from_seed(decode_exactly<32>(doc, "seed", file), label_of(doc), development_of(doc));
    if (decode_exactly<32>(doc, "public_key", file) != key.public_key.bytes)
        throw KeyFileError(file.string() + ": \"public_key\" is not the public key of \"seed\"");
    return key;
}

PublicKey read_public_key(const std::filesystem::path& file) {
    PublicKey key;
    if (const std::string text = read_whole_file<KeyFileError>(file); pem::is_pem(text)) {
        const pem::Fields fields = pem::read_public(text, file);
        key.bytes = fields.bytes;
        key.label = fields.label;
        key.development = fields.development;
        return key;
    }
    const spec::Json doc = read_key_json(file, kPublicKind);
    key.bytes = decode_exactly<32>(doc, "public_key", file);
    key.label = label_of(doc);
    key.development = development_of(doc);
    if (doc.contains("keyid") && doc.at("keyid") != key.keyid())
        throw KeyFileError(file.string() + ": \"keyid\" is not the SHA-256 of the public key");
    return key;
}

}  // namespace kcs::reports
