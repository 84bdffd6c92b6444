// The operators of a device adapter with kernels of its own (OpenCL,
// Vulkan, CUDA): each has a `name`, a `check` that decides from the call
// alone whether the adapter computes it (operator_checks.hpp) and a `run`.
// Here: finding one by name, and a call checked against its operator, as
// supports() decides it and run() begins.
#pragma once

#include <string>
#include <string_view>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "op_request.hpp"

namespace kcs::device {

namespace detail {
template <typename T>
const T& as_ref(const T& value) { return value; }
template <typename T>
const T& as_ref(const T* pointer) { return *pointer; }
}  // namespace detail

// The operator of that name among `operators` (values or pointers);
// KCS_UNSUPPORTED for a name the adapter has no kernel for.
template <typename Range>
const auto& find_named_operator(const Range& operators, std::string_view name) {
    for (const auto& entry : operators)
        if (detail::as_ref(entry).name == name) return detail::as_ref(entry);
    unsupported("no kernel for operator '" + std::string(name) + "'");
}

// The call parsed, its operator found by `find`, its tensors contiguous,
// and the operator's own check passed; `found` is set to the operator.
template <typename Operator>
Request checked_request(const kcs_op* op, const Operator& (*find)(std::string_view), const Operator*& found) {
    Request request = parse_request(op);
    found = &find(request.name);
    check_contiguous(request);
    found->check(request);
    return request;
}

}  // namespace kcs::device
