// How an adapter reports a failed step: an AdapterFailure carries the
// kcs_status and the message last_error returns. Thrown anywhere inside an
// adapter, caught at the C boundary by guarded(), never beyond it.
#pragma once

#include <kcs/adapter.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

namespace kcs::device {

class AdapterFailure : public std::runtime_error {
public:
    AdapterFailure(kcs_status status, const std::string& message) : std::runtime_error(message), status_(status) {}
    kcs_status status() const { return status_; }

private:
    kcs_status status_;
};

[[noreturn]] inline void fail(kcs_status status, const std::string& message) { throw AdapterFailure(status, message); }
[[noreturn]] inline void invalid(const std::string& message) { fail(KCS_INVALID_ARGUMENT, message); }
[[noreturn]] inline void unsupported(const std::string& message) { fail(KCS_UNSUPPORTED, message); }

// Keeps `message` as the last error and returns `status`; never throws.
inline kcs_status record(std::string& last_error, kcs_status status, const char* message) noexcept {
    try {
        last_error = message;
    } catch (...) {
        last_error.clear();
    }
    return status;
}

// Runs the body of one ABI call; an AdapterFailure becomes its status and
// last error, and nothing else escapes either.
template <class Body>
kcs_status guarded(std::string& last_error, Body&& body) noexcept {
    try {
        body();
        return KCS_OK;
    } catch (const AdapterFailure& failure) {
        return record(last_error, failure.status(), failure.what());
    } catch (const std::bad_alloc&) {
        return record(last_error, KCS_OUT_OF_MEMORY, "out of host memory");
    } catch (const std::exception& e) {
        return record(last_error, KCS_INTERNAL_ERROR, e.what());
    } catch (...) {
        return record(last_error, KCS_INTERNAL_ERROR, "unknown exception");
    }
}

}  // namespace kcs::device
