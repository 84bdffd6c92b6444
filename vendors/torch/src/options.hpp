// The options of the torch adapter's open():
//   threads=N                    ATen's intra-op threads (at::set_num_threads)
//                                for every call of the instance (default:
//                                ATen's own choice when the process started)
//   deterministic=true|false     at::globalContext().setDeterministicAlgorithms
//                                (default false, ATen's default)
//   flush_denormal=true|false    at::globalContext().setFlushDenormal
//                                (default false, ATen's default)
//   gelu=none|tanh               the approximate argument of at::gelu for
//                                unary gelu (default none: the exact erf form)
#pragma once

#include <cstdint>
#include <optional>

namespace kcs::torch {

struct Options {
    std::optional<int> threads;
    bool deterministic = false;
    bool flush_denormal = false;
    bool gelu_tanh = false;
};

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for an unknown key or a bad
// value, naming what is accepted.
Options parse_options(const char* const* options, std::uint32_t option_count);

}  // namespace kcs::torch
