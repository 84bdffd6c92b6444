#include "kcs/reports/subjects.hpp"

#include "kcs/spec/sha256.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace kcs::reports {

namespace {

// "sha256:HEX" (how the catalog and claims digests are written) -> "HEX".
std::string hex_of(const std::string& digest) {
    const std::string prefix = "sha256:";
    return digest.starts_with(prefix) ? digest.substr(prefix.size()) : digest;
}

}  // namespace

std::string sha256_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string() + ": " + std::strerror(errno));
    Sha256Hasher hasher;
    char chunk[1 << 16];
    while (in) {
        in.read(chunk, sizeof chunk);
        hasher.update(std::string_view(chunk, static_cast<std::size_t>(in.gcount())));
    }
    if (in.bad()) throw std::runtime_error("error while reading " + file.string());
    return hex(hasher.finish());
}

std::vector<Subject> make_subjects(const std::filesystem::path& adapter_library, const harness::Claims& claims,
                                   const spec::Catalog& catalog, const std::filesystem::path& kcs_executable) {
    std::vector<Subject> subjects;
    subjects.push_back({"adapter", adapter_library.filename().string(), sha256_file(adapter_library),
                        std::filesystem::absolute(adapter_library).lexically_normal().string()});
    // The claims digest is already over the file's bytes, as read.
    if (!claims.file.empty())
        subjects.push_back({"claims", claims.file.filename().string(), hex_of(claims.digest),
                            std::filesystem::absolute(claims.file).lexically_normal().string()});
    subjects.push_back(
        {"catalog", "catalog-v" + catalog.spec_version, hex_of(spec::catalog_digest(catalog)), catalog.root.string()});
    subjects.push_back(
        {"kcs", kcs_executable.filename().string(), sha256_file(kcs_executable), kcs_executable.string()});
    return subjects;
}

}  // namespace kcs::reports
