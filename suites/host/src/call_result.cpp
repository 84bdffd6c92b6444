#include "kcs/host/call_result.hpp"

#include <string.h>  // sigabbrev_np, sigdescr_np (GNU)

namespace kcs::host {

std::string_view to_string(CallOutcome outcome) {
    switch (outcome) {
        case CallOutcome::ok: return "ok";
        case CallOutcome::adapter_status: return "adapter_status";
        case CallOutcome::invalid_status: return "invalid_status";
        case CallOutcome::stale_buffer: return "stale_buffer";
        case CallOutcome::crash: return "crash";
        case CallOutcome::timeout: return "timeout";
        case CallOutcome::protocol_error: return "protocol_error";
    }
    return "unknown";
}

bool is_known_status(kcs_status status) { return status >= KCS_OK && status <= KCS_INTERNAL_ERROR; }

std::string status_name(kcs_status status) {
    switch (status) {
        case KCS_OK: return "KCS_OK";
        case KCS_UNSUPPORTED: return "KCS_UNSUPPORTED";
        case KCS_OUT_OF_RANGE: return "KCS_OUT_OF_RANGE";
        case KCS_INVALID_ARGUMENT: return "KCS_INVALID_ARGUMENT";
        case KCS_OUT_OF_MEMORY: return "KCS_OUT_OF_MEMORY";
        case KCS_DEVICE_ERROR: return "KCS_DEVICE_ERROR";
        case KCS_DEVICE_LOST: return "KCS_DEVICE_LOST";
        case KCS_INTERNAL_ERROR: return "KCS_INTERNAL_ERROR";
        default: {
            std::string text = "status ";
            return text.append(std::to_string(status));
        }
    }
}

std::string WorkerExit::describe() const {
    // append, not operator+ chains: GCC 12 warns falsely (-Wrestrict) about those.
    std::string text = signaled ? "killed by signal " : "exited with code ";
    text.append(std::to_string(number));
    const char* abbrev = ::sigabbrev_np(number);
    const char* descr = ::sigdescr_np(number);
    if (signaled && abbrev && descr) text.append(" (SIG").append(abbrev).append(": ").append(descr).append(")");
    return text;
}

std::string CallResult::describe() const {
    std::string text(to_string(outcome));
    if (outcome == CallOutcome::adapter_status || outcome == CallOutcome::invalid_status)
        text.append(" ").append(status_name(status));
    if (!message.empty()) text.append(": ").append(message);
    return text;
}

}  // namespace kcs::host
