// Moving bytes over the worker channel (a stream socket) with a deadline.
// Both sides use these; the worker passes no_deadline.
#pragma once

#include <chrono>
#include <cstddef>
#include <span>

#include "unique_fd.hpp"

namespace kcs::host {

using Deadline = std::chrono::steady_clock::time_point;
inline constexpr Deadline no_deadline = Deadline::max();

enum class IoResult {
    ok,
    closed,     // the other end is gone (EOF, EPIPE, ECONNRESET)
    timed_out,  // the deadline passed first
    failed,     // any other error (errno says which)
};

// Sends all of `data`. Never raises SIGPIPE.
IoResult send_all(int fd, std::span<const std::byte> data, Deadline deadline);

// Waits until a receive would find bytes (or the other end gone), or the
// deadline passes; receives nothing.
IoResult wait_readable(int fd, Deadline deadline);

// Receives exactly data.size() bytes.
IoResult receive_exact(int fd, std::span<std::byte> data, Deadline deadline);

// The same, with a descriptor: send_all_with_fd attaches `passed` to the
// first bytes of `data` (SCM_RIGHTS; data must not be empty), and
// receive_exact_with_fd keeps a descriptor that arrives with any of the
// bytes it receives in `passed` (close-on-exec; a second one is closed).
// A plain receive_exact would discard such a descriptor.
IoResult send_all_with_fd(int fd, std::span<const std::byte> data, int passed, Deadline deadline);
IoResult receive_exact_with_fd(int fd, std::span<std::byte> data, Deadline deadline, UniqueFd& passed);

}  // namespace kcs::host
