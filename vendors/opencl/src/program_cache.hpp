// Program binaries on disk, so that a second run does not compile again.
// An entry is keyed by everything that decides the binary: the device, its
// driver, the build options and the full source. Its file name is a hash of
// that key; the key itself is stored beside the binary and compared on
// load, so a hash collision or a changed driver costs a compile, never a
// wrong program. Writes go to a temporary file renamed into place, so two
// workers filling the cache at once cannot leave a torn entry. A cache that
// cannot be read or written is skipped: it is an optimisation only.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kcs::opencl {

class ProgramCache {
public:
    explicit ProgramCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

    const std::filesystem::path& dir() const { return dir_; }
    std::optional<std::vector<unsigned char>> load(const std::string& key) const;
    void store(const std::string& key, const std::vector<unsigned char>& binary) const;

private:
    std::filesystem::path entry(const std::string& key, const char* extension) const;

    std::filesystem::path dir_;
};

}  // namespace kcs::opencl
