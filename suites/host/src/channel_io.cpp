#include "channel_io.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

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

IoResult wait_readable(int fd, Deadline deadline) { return wait_ready(fd, POLLIN, deadline); }

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
    UniqueFd discarded;  // a descriptor sent along is closed, as a plain recv would
    return receive_exact_with_fd(fd, data, deadline, discarded);
}

IoResult send_all_with_fd(int fd, std::span<const std::byte> data, int passed, Deadline deadline) {
    if (data.empty()) return IoResult::failed;  // a descriptor needs at least one byte to travel with
    for (;;) {
        iovec io{const_cast<std::byte*>(data.data()), data.size()};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
        msghdr message{};
        message.msg_iov = &io;
        message.msg_iovlen = 1;
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        cmsghdr* header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(header), &passed, sizeof(int));
        const ssize_t n = ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) return send_all(fd, data.subspan(static_cast<std::size_t>(n)), deadline);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (const auto ready = wait_ready(fd, POLLOUT, deadline); ready != IoResult::ok) return ready;
            continue;
        }
        return n < 0 && peer_gone(errno) ? IoResult::closed : IoResult::failed;
    }
}

IoResult receive_exact_with_fd(int fd, std::span<std::byte> data, Deadline deadline, UniqueFd& passed) {
    while (!data.empty()) {
        iovec io{data.data(), data.size()};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
        msghdr message{};
        message.msg_iov = &io;
        message.msg_iovlen = 1;
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        const ssize_t n = ::recvmsg(fd, &message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n > 0) {
            for (cmsghdr* h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
                if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
                const std::size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (std::size_t i = 0; i < count; ++i) {
                    int received = -1;
                    std::memcpy(&received, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
                    if (passed) ::close(received);
                    else passed.reset(received);
                }
            }
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
