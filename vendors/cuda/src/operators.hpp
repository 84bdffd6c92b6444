// The v1 operators the adapter computes (spec/v1/operators/*.yaml): for
// each, check() decides from names, dtypes, shapes and attributes whether
// run() computes the call (throwing KCS_UNSUPPORTED for what the adapter
// declines, KCS_INVALID_ARGUMENT for a call that contradicts itself), and
// run() launches its kernels. Neither waits for the device.
#pragma once

#include <string_view>

#include "execution.hpp"
#include "op_request.hpp"

namespace kcs::cuda {

struct Operator {
    std::string_view name;
    void (*check)(const device::Request& request);
    void (*run)(Execution& execution, const device::Request& request);
};

// The operator of that name; throws KCS_UNSUPPORTED for an unknown one.
const Operator& find_operator(std::string_view name);

}  // namespace kcs::cuda
