// Writing a report so that a reader never sees half a file: the text goes
// to a temporary file beside it, which then replaces it in one rename. And
// reading a report, key or Statement whole.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace kcs::reports {

// Creates the folder if needed. Throws std::runtime_error saying which
// file could not be written and why.
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

// The most a report, envelope or key file may hold (parse_json_strict's limit).
inline constexpr std::uintmax_t kMaxDocumentBytes = std::uintmax_t{512} << 20;

// The whole file's bytes. Throws Error{"FILE: cannot read: REASON"}, the
// caller's error type (which decides the exit code it leads to), also for
// a file over kMaxDocumentBytes, before reading it.
template <typename Error>
std::string read_whole_file(const std::filesystem::path& file) {
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(file, ec);
    if (!ec && size > kMaxDocumentBytes)
        throw Error{file.string() + ": " + std::to_string(size) + " bytes, over the limit of " +
                    std::to_string(kMaxDocumentBytes) + " for a report, envelope or key"};
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    if (in) buffer << in.rdbuf();
    if (!in || in.bad()) throw Error{file.string() + ": cannot read: " + std::strerror(errno)};
    return buffer.str();
}

}  // namespace kcs::reports
