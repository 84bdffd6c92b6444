#include "worker_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "frames.hpp"

extern char** environ;

namespace kcs::host {

namespace {

[[noreturn]] void fail(int error, const std::string& what) { throw std::system_error(error, std::generic_category(), what); }

// posix_spawn's attributes and file actions, destroyed on every path.
struct SpawnSetup {
    posix_spawnattr_t attr{};
    posix_spawn_file_actions_t actions{};
    SpawnSetup() {
        posix_spawnattr_init(&attr);
        posix_spawn_file_actions_init(&actions);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    SpawnSetup(const SpawnSetup&) = delete;
    SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// The exit status of an already ended child, without reaping it, or nothing.
std::optional<WorkerExit> peek_exit(pid_t pid) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid != pid)
        return std::nullopt;
    if (info.si_code == CLD_EXITED) return WorkerExit{false, info.si_status};
    return WorkerExit{true, info.si_status};
}

}  // namespace

WorkerProcess::WorkerProcess(const std::filesystem::path& worker, const std::filesystem::path& adapter) {
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) fail(errno, "socketpair");
    channel_.reset(ends[0]);
    // Keep the worker's end off fd 3 itself: dup2 onto the same number
    // would leave close-on-exec set.
    UniqueFd worker_end(::fcntl(ends[1], F_DUPFD_CLOEXEC, 10));
    ::close(ends[1]);
    if (!worker_end) fail(errno, "fcntl(F_DUPFD_CLOEXEC)");

    // Large socket buffers let bulk data move in fewer, larger steps; the
    // kernel caps them at net.core.[rw]mem_max.
    const int buffer_bytes = 4 << 20;
    for (const int fd : {channel_.get(), worker_end.get()}) {
        ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer_bytes, sizeof buffer_bytes);
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof buffer_bytes);
    }

    SpawnSetup setup;
    posix_spawn_file_actions_adddup2(&setup.actions, worker_end.get(), worker_channel_fd);
    posix_spawn_file_actions_addopen(&setup.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    // A harness that blocks or ignores signals must not hand that on: the
    // worker should die of SIGPIPE, SIGTERM etc. like any program.
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (const int s : {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2})
        sigaddset(&defaults, s);
    posix_spawnattr_setsigmask(&setup.attr, &none);
    posix_spawnattr_setsigdefault(&setup.attr, &defaults);
    posix_spawnattr_setpgroup(&setup.attr, 0);
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    std::string worker_arg = worker.string();
    std::string adapter_arg = adapter.string();
    std::vector<char*> argv{worker_arg.data(), adapter_arg.data(), nullptr};
    pid_t pid = -1;
    if (const int error = ::posix_spawn(&pid, worker_arg.c_str(), &setup.actions, &setup.attr, argv.data(), environ))
        fail(error, "cannot start " + worker_arg);
    pid_ = pid;
}

WorkerProcess::~WorkerProcess() {
    if (pid_ > 0) stop(std::chrono::milliseconds(0));
}

std::optional<WorkerExit> WorkerProcess::stop(std::chrono::milliseconds grace) {
    if (pid_ <= 0) return std::nullopt;
    channel_.reset();  // a worker still reading sees EOF and exits
    const auto deadline = std::chrono::steady_clock::now() + grace;
    auto ended = peek_exit(pid_);
    while (!ended && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ended = peek_exit(pid_);
    }
    // Kill before reaping: until it is reaped, the pid and the group id
    // cannot be reused by an unrelated process.
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);  // in case the adapter moved the worker to another group
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return ended;
}

}  // namespace kcs::host
