#include "kcs/reports/report_file.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace kcs::reports {

namespace {

// "; N bytes to write, M free on its file system": what a full disk needs.
std::string space_note(const std::filesystem::path& folder, std::size_t bytes) {
    std::string note = "; " + std::to_string(bytes) + " bytes to write";
    struct statvfs fs {};
    if (::statvfs(folder.empty() ? "." : folder.c_str(), &fs) == 0)
        note += ", " + std::to_string(static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize) +
                " free on its file system";
    return note;
}

// Writes all of `text` to a new file; false with errno set on any failure.
bool write_all(const std::filesystem::path& file, std::string_view text) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            const int saved = errno;
            ::close(fd);
            errno = saved;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    // Some file systems report a full disk only when the file is closed.
    return ::close(fd) == 0;
}

}  // namespace

void write_file_atomically(const std::filesystem::path& file, std::string_view text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    if (ec) throw std::runtime_error("cannot create " + file.parent_path().string() + ": " + ec.message());

    // Beside the file, so that the rename stays within one file system.
    const fs::path temporary = file.string() + ".tmp-" + std::to_string(::getpid());
    if (!write_all(temporary, text)) {
        const int saved = errno;
        fs::remove(temporary, ec);  // never leave a truncated copy behind
        std::string why = std::strerror(saved);
        if (saved == ENOSPC || saved == EDQUOT || saved == EFBIG) why += space_note(file.parent_path(), text.size());
        throw std::runtime_error("cannot write " + file.string() + " (through " + temporary.filename().string() +
                                 ", removed): " + why + "; " + file.filename().string() + " is unchanged");
    }
    fs::rename(temporary, file, ec);
    if (ec) {
        fs::remove(temporary);
        throw std::runtime_error("cannot replace " + file.string() + ": " + ec.message());
    }
}

}  // namespace kcs::reports
