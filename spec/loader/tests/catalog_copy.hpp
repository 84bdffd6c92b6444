// A private copy of a catalog folder that a test may break, and helpers to
// find where a diagnostic should point.
#pragma once

#include <filesystem>
#include <string>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec::testing {

std::filesystem::path source_catalog();  // spec/v1 of this source tree

class CatalogCopy {
public:
    explicit CatalogCopy(const std::filesystem::path& from = source_catalog());
    ~CatalogCopy();
    CatalogCopy(const CatalogCopy&) = delete;
    CatalogCopy& operator=(const CatalogCopy&) = delete;

    const std::filesystem::path& dir() const { return dir_; }
    std::filesystem::path path(const std::string& rel) const { return dir_ / rel; }

    std::string read(const std::string& rel) const;
    void write(const std::string& rel, const std::string& content) const;
    // Replaces the first occurrence of `from`; fails the test if absent.
    void replace(const std::string& rel, const std::string& from, const std::string& to) const;
    void remove(const std::string& rel) const;

    // 1-based line of the first occurrence of `needle` in the file; 0 if absent.
    int line_of(const std::string& rel, const std::string& needle) const;

    LoadResult load() const { return load_catalog(dir_); }

private:
    std::filesystem::path dir_;
};

// The first diagnostic whose file ends with `file_suffix` and whose message
// contains `message`; nullptr if none.
const Diagnostic* find_diagnostic(const LoadResult& result, const std::string& file_suffix,
                                  const std::string& message);

// All diagnostics as text, for failure messages.
std::string dump(const LoadResult& result);

}  // namespace kcs::spec::testing
