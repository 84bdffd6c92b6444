// kcs-worker ADAPTER: hosts one adapter library for a kcs process, which
// talks to it over fd 3 (suites/host/PROTOCOL.md). Not meant to be run by
// hand: it is started by IsolatedAdapter, one worker per adapter instance.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include <string>
#include <string_view>
#include <vector>

#include "frames.hpp"
#include "kcs/host/adapter_check.hpp"
#include "worker_server.hpp"

int main(int argc, char** argv) {
    using kcs::host::worker_channel_fd;
    // kcs-worker --concurrency-check ADAPTER [OPTION...]: one step of
    // `kcs adapter check`, run here so that a race that crashes costs the step.
    if (argc >= 3 && std::string_view(argv[1]) == "--concurrency-check")
        return kcs::host::run_concurrency_probe(argv[2], std::vector<std::string>(argv + 3, argv + argc));
    if (argc != 2 || ::fcntl(worker_channel_fd, F_GETFD) < 0) {
        std::fprintf(stderr,
                     "usage: kcs-worker ADAPTER_PATH, with the kcs worker channel on fd 3.\n"
                     "kcs starts this program itself; see suites/host/PROTOCOL.md.\n");
        return 64;
    }
    // Processes the adapter may start must not inherit the channel.
    ::fcntl(worker_channel_fd, F_SETFD, FD_CLOEXEC);
    // Whatever the adapter prints to stdout goes to stderr with its other
    // diagnostics; the channel is separate anyway, but a harness whose own
    // stdout is a report must not receive adapter chatter.
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    return kcs::host::serve(worker_channel_fd, argv[1]);
}
