// The result of one step of an ABI call: a status and, when it is not
// KCS_OK, the message that last_error reports.
#pragma once

#include <kcs/adapter.h>

#include <string>
#include <utility>

namespace kcs::cpu_core {

struct Outcome {
    kcs_status status = KCS_OK;
    std::string message;

    bool ok() const { return status == KCS_OK; }
};

inline Outcome success() { return {}; }
inline Outcome failure(kcs_status status, std::string message) { return {status, std::move(message)}; }
inline Outcome invalid_argument(std::string message) { return {KCS_INVALID_ARGUMENT, std::move(message)}; }

}  // namespace kcs::cpu_core
