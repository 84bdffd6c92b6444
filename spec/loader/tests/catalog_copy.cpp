#include "catalog_copy.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

namespace kcs::spec::testing {

std::filesystem::path source_catalog() { return std::filesystem::path(KCS_SOURCE_DIR) / "spec" / "v1"; }

CatalogCopy::CatalogCopy(const std::filesystem::path& from) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("kcs-catalog-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_.parent_path());
    std::filesystem::copy(from, dir_, std::filesystem::copy_options::recursive);
}

CatalogCopy::~CatalogCopy() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
}

std::string CatalogCopy::read(const std::string& rel) const {
    std::ifstream in(path(rel), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void CatalogCopy::write(const std::string& rel, const std::string& content) const {
    std::ofstream(path(rel), std::ios::binary | std::ios::trunc) << content;
}

void CatalogCopy::replace(const std::string& rel, const std::string& from, const std::string& to) const {
    std::string text = read(rel);
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << "'" << from << "' not found in " << rel;
    text.replace(at, from.size(), to);
    write(rel, text);
}

void CatalogCopy::remove(const std::string& rel) const { std::filesystem::remove(path(rel)); }

int CatalogCopy::line_of(const std::string& rel, const std::string& needle) const {
    const std::string text = read(rel);
    const auto at = text.find(needle);
    if (at == std::string::npos) return 0;
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

const Diagnostic* find_diagnostic(const LoadResult& result, const std::string& file_suffix,
                                  const std::string& message) {
    for (const auto& d : result.diagnostics.all()) {
        const auto& file = d.where.file;
        const bool file_matches = file.size() >= file_suffix.size() &&
                                  file.compare(file.size() - file_suffix.size(), file_suffix.size(), file_suffix) == 0;
        if (file_matches && d.message.find(message) != std::string::npos) return &d;
    }
    return nullptr;
}

std::string dump(const LoadResult& result) {
    std::ostringstream out;
    for (const auto& d : result.diagnostics.all()) out << d.str() << "\n";
    return out.str();
}

}  // namespace kcs::spec::testing
