// SHA-256, the one hash of KCS: catalog and claims digests, report
// subjects, the integrity protocol's input hashes and the distinct_outputs
// model. OpenSSL's implementation, which uses the CPU's SHA extensions
// where present (the integrity protocol hashes every input of every run).
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace kcs {

using Sha256 = std::array<unsigned char, 32>;

// Incremental hashing of data that arrives in pieces.
class Sha256Hasher {
public:
    Sha256Hasher();
    ~Sha256Hasher();
    Sha256Hasher(const Sha256Hasher&) = delete;
    Sha256Hasher& operator=(const Sha256Hasher&) = delete;

    void update(std::span<const std::byte> bytes);
    void update(std::string_view bytes);
    // The hash of everything given; the hasher is spent.
    Sha256 finish();

private:
    struct State;
    std::unique_ptr<State> state_;
};

Sha256 sha256(std::span<const std::byte> bytes);
Sha256 sha256(std::string_view bytes);

// Lower-case hex, 64 characters.
std::string hex(const Sha256& hash);

// "sha256:HEX", the form every digest in a report takes.
std::string sha256_digest(std::string_view bytes);

}  // namespace kcs
