#include "process_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

namespace kcs::host {

std::optional<std::uint64_t> resident_bytes(pid_t pid) {
    // statm: size resident shared text lib data dt, in pages.
    std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
    std::uint64_t size_pages = 0, resident_pages = 0;
    if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
    return resident_pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace kcs::host
