// The strings info() reports for a CPU adapter instance.
#pragma once

#include <string>

#include "adapter_options.hpp"
#include "kcs/cpu_core/cpu_adapter.hpp"

namespace kcs::cpu_core {

// What a report reader should know about this instance. For an adapter
// that offers violations the first line is
// "violation: NAME; offers: a, b, ...", the second how it computes, and
// every offered violation follows on a line of its own,
// "NAME (CLASS): description" (kcs::kernels::violations() is their home).
std::string adapter_notes(const AdapterProfile& profile, const AdapterOptions& options);

}  // namespace kcs::cpu_core
