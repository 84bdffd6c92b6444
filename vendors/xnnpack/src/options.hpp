// The options of the XNNPACK adapter's open():
//   threads=N                 a pthreadpool of N threads for every call of
//                             the instance (default: no pool, XNNPACK
//                             computes on the calling thread)
//   f16_matmul=decline|offer  whether matmul f16 x f16 -> f16 is offered,
//                             although XNNPACK accumulates it in f16
//                             (default decline)
#pragma once

#include <cstdint>
#include <optional>

namespace kcs::xnnpack {

struct Options {
    std::optional<int> threads;
    bool f16_matmul = false;
};

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for an unknown key or a bad
// value, naming what is accepted.
Options parse_options(const char* const* options, std::uint32_t option_count);

}  // namespace kcs::xnnpack
