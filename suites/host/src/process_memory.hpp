// How much memory a process holds.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace kcs::host {

// Resident set size in bytes, from /proc/PID/statm; nothing if the process
// is gone or /proc cannot be read.
std::optional<std::uint64_t> resident_bytes(pid_t pid);

}  // namespace kcs::host
