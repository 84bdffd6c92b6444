#include "program_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace kcs::opencl {

namespace {

// FNV-1a, 64 bits: a file name, not a security boundary (the key is compared).
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
    return hash;
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) return std::nullopt;
    return std::move(text).str();
}

bool write_atomically(const std::filesystem::path& path, const char* data, std::size_t size) {
    const std::filesystem::path temporary =
        path.string() + ".tmp" + std::to_string(static_cast<long long>(::getpid()));
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out.write(data, static_cast<std::streamsize>(size))) return false;
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) std::filesystem::remove(temporary, ec);
    return !ec;
}

}  // namespace

std::filesystem::path ProgramCache::entry(const std::string& key, const char* extension) const {
    char name[17];
    std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
    return dir_ / (std::string(name) + extension);
}

std::optional<std::vector<unsigned char>> ProgramCache::load(const std::string& key) const {
    const auto stored_key = read_file(entry(key, ".key"));
    if (!stored_key || *stored_key != key) return std::nullopt;
    const auto binary = read_file(entry(key, ".bin"));
    if (!binary || binary->empty()) return std::nullopt;
    return std::vector<unsigned char>(binary->begin(), binary->end());
}

void ProgramCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return;
    // The binary first: a reader that finds the key finds a complete binary
    // (or a newer one for the same key).
    if (!write_atomically(entry(key, ".bin"), reinterpret_cast<const char*>(binary.data()), binary.size())) return;
    write_atomically(entry(key, ".key"), key.data(), key.size());
}

}  // namespace kcs::opencl
