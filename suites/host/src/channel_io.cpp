#include "channel_io.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace kcs::host {

namespace {

// Waits until fd is ready for `events`. Non-blocking sends and receives
// (MSG_DONTWAIT) plus poll() are what make the deadline hold even in the
// middle of a large transfer.
IoResult wait_ready(int fd, short events, Deadline deadline) {
    for (;;) {
        int timeout_ms = -1;
        if (deadline != no_deadline) {
            const auto left = deadline - std::chrono::steady_clock::now();
            if (left <= left.zero()) return IoResult::timed_out;
            // Round up, so that a wait never ends just short of the deadline.
            timeout_ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
        }
        pollfd p{fd, events, 0};
        const int n = ::poll(&p, 1, timeout_ms);
        if (n > 0) return IoResult::ok;  // ready, or hung up: the next send/recv tells which
        if (n == 0) return IoResult::timed_out;
        if (errno != EINTR) return IoResult::failed;
    }
}

bool peer_gone(int error) { return error == EPIPE || error == ECONNRESET; }

}  // namespace

IoResult send_all(int fd, std::span<const std::byte> data, Deadline deadline) {
    while (!data.empty()) {
        // MSG_NOSIGNAL: a dead worker must not take the harness down with SIGPIPE.
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            data = data.subspan(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (const auto ready = wait_ready(fd, POLLOUT, deadline); ready != IoResult::ok) return ready;
            continue;
        }
        return n < 0 && peer_gone(errno) ? IoResult::closed : IoResult::failed;
    }
    return IoResult::ok;
}

IoResult receive_exact(int fd, std::span<std::byte> data, Deadline deadline) {
    while (!data.empty()) {
        const ssize_t n = ::recv(fd, data.data(), data.size(), MSG_DONTWAIT);
        if (n > 0) {
            data = data.subspan(static_cast<std::size_t>(n));
            continue;
        }
        if (n == 0) return IoResult::closed;
        if (errno == EINTR) continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (const auto ready = wait_ready(fd, POLLIN, deadline); ready != IoResult::ok) return ready;
            continue;
        }
        return peer_gone(errno) ? IoResult::closed : IoResult::failed;
    }
    return IoResult::ok;
}

}  // namespace kcs::host
