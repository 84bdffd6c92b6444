// Writing a report so that a reader never sees half a file: the text goes
// to a temporary file beside it, which then replaces it in one rename.
#pragma once

#include <filesystem>
#include <string_view>

namespace kcs::reports {

// Creates the folder if needed. Throws std::runtime_error saying which
// file could not be written and why.
void write_file_atomically(const std::filesystem::path& file, std::string_view text);

}  // namespace kcs::reports
