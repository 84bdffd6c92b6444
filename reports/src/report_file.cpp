#include "kcs/reports/report_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

namespace kcs::reports {

void write_file_atomically(const std::filesystem::path& file, std::string_view text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot create " + file.parent_path().string() + ": " + ec.message());

    // Beside the file, so that the rename stays within one file system.
    const fs::path temporary = file.string() + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        out.flush();
        if (!out) throw std::runtime_error("cannot write " + temporary.string() + ": " + std::strerror(errno));
    }
    fs::rename(temporary, file, ec);
    if (ec) {
        fs::remove(temporary);
        throw std::runtime_error("cannot replace " + file.string() + ": " + ec.message());
    }
}

}  // namespace kcs::reports
