// The outcome of one call into an isolated adapter, as a value: what the
// adapter answered, or how the worker process failed to answer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <kcs/adapter.h>

namespace kcs::host {

enum class CallOutcome {
    ok,              // the adapter returned KCS_OK
    adapter_status,  // the adapter returned another status of the ABI's enum
    invalid_status,  // the adapter broke the ABI in its answer: a status outside
                     // the enum, a 0 buffer handle or a NULL info string with KCS_OK
    stale_buffer,    // a buffer handle of an earlier worker; the call never reached the adapter
    crash,           // the worker died: a signal, or an exit nobody asked for (worker_exit says which)
    timeout,         // no answer within the call timeout; the worker was killed
    protocol_error,  // the worker's answer was not a valid reply frame; the worker was killed
};

std::string_view to_string(CallOutcome outcome);

// "KCS_OK" ... "KCS_INTERNAL_ERROR", or "status N" outside the enum.
std::string status_name(kcs_status status);
bool is_known_status(kcs_status status);

// How a worker process ended by itself.
struct WorkerExit {
    bool signaled = false;  // killed by a signal, else exited
    int number = 0;         // the signal number, or the exit code

    // "exited with code 0", "killed by signal 11 (SIGSEGV: Segmentation fault)".
    std::string describe() const;
};

struct CallResult {
    CallOutcome outcome = CallOutcome::ok;
    // The adapter's status for ok, adapter_status and invalid_status;
    // KCS_INVALID_ARGUMENT for stale_buffer; KCS_DEVICE_LOST when the
    // worker (and with it every buffer) is gone.
    kcs_status status = KCS_OK;
    // The adapter's last_error, or what went wrong with the worker. Empty on ok.
    std::string message;
    std::optional<WorkerExit> worker_exit;  // for crash

    bool ok() const noexcept { return outcome == CallOutcome::ok; }
    // The worker was lost with this call; the next call starts a fresh one.
    bool worker_lost() const noexcept {
        return outcome == CallOutcome::crash || outcome == CallOutcome::timeout ||
               outcome == CallOutcome::protocol_error;
    }
    // "crash: worker killed by signal 11 (...) during run", for logs and tests.
    std::string describe() const;
};

// A call that also returns a value (meaningful only when result.ok()).
template <class T>
struct CallValue {
    CallResult result;
    T value{};

    bool ok() const noexcept { return result.ok(); }
};

}  // namespace kcs::host
