// The options of the oneDNN adapter's open():
//   fpmath=strict|bf16|f16|any  the fpmath mode of every primitive (default strict)
//   threads=N                   the OpenMP thread count around each call
//   isa=NAME                    oneDNN's ISA cap, once per process
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace kcs::onednn {

struct Options {
    dnnl::fpmath_mode fpmath = dnnl::fpmath_mode::strict;
    std::string fpmath_name = "strict";
    std::optional<int> threads;
    std::optional<std::string> isa;
};

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for an unknown key or a bad
// value, naming what is accepted.
Options parse_options(const char* const* options, std::uint32_t option_count);

// Caps oneDNN's ISA for the whole process (dnnl_set_max_cpu_isa). oneDNN
// takes the cap once, before its first primitive; a later different value
// is refused with KCS_INVALID_ARGUMENT instead of being silently ignored.
// Returns the cap in force ("" when no isa= was given in this process).
std::string apply_isa(const std::optional<std::string>& isa);

// The name of an ISA value of oneDNN ("avx2"), or its number in hex.
std::string isa_name(dnnl::cpu_isa isa);

}  // namespace kcs::onednn
