// WorkerProcess: one running kcs-worker, owned: its pid, its process group
// and the harness's end of the channel. Destroying it kills and reaps it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>

#include "kcs/host/call_result.hpp"
#include "unique_fd.hpp"

namespace kcs::host {

class WorkerProcess {
public:
    // Runs `worker adapter` in a process group of its own (a terminal's
    // Ctrl-C reaches the harness, which decides), with its end of a stream
    // socket pair on fd 3 and stdin from /dev/null. Throws std::system_error.
    WorkerProcess(const std::filesystem::path& worker, const std::filesystem::path& adapter);
    WorkerProcess(const WorkerProcess&) = delete;
    WorkerProcess& operator=(const WorkerProcess&) = delete;
    ~WorkerProcess();

    pid_t pid() const noexcept { return pid_; }
    int channel() const noexcept { return channel_.get(); }

    // Gives the worker up to `grace` to exit by itself, then kills its whole
    // process group (helpers the adapter started too) and reaps it. Returns
    // how it ended if it ended by itself, nothing if it had to be killed.
    // Call once; afterwards there is no process.
    std::optional<WorkerExit> stop(std::chrono::milliseconds grace);

private:
    pid_t pid_ = -1;
    UniqueFd channel_;
};

}  // namespace kcs::host
