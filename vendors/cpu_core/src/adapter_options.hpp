// The options of open(): threads=N for every CPU adapter; violation=NAME
// and conforming=NAME (at most one of them) where the profile offers
// calibration behaviours.
#pragma once

#include <cstdint>

#include "kcs/cpu_core/cpu_adapter.hpp"
#include "kcs/reference/kernels.hpp"
#include "outcome.hpp"

namespace kcs::cpu_core {

struct AdapterOptions {
    int threads = 1;  // serial by default: reproducible timing, the same bits either way
    kernels::Violation violation = kernels::Violation::none;
    kernels::Conformer conformer = kernels::Conformer::none;
};

// KCS_INVALID_ARGUMENT, with a message naming the option, for a string
// that is not key=value, an unknown key, a bad value or a repeated key.
Outcome parse_options(const AdapterProfile& profile, const char* const* options, std::uint32_t option_count,
                      AdapterOptions& parsed);

}  // namespace kcs::cpu_core
