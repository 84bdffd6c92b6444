#include "options.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <mutex>
#include <string_view>
#include <utility>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::onednn {

namespace {

constexpr const char* kName = "onednn";
constexpr const char* kAccepted = "fpmath=strict|bf16|f16|any, threads=N, isa=NAME";

using dnnl::cpu_isa;
constexpr std::array<std::pair<std::string_view, cpu_isa>, 9> kIsas{{
    {"sse41", cpu_isa::sse41},
    {"avx", cpu_isa::avx},
    {"avx2", cpu_isa::avx2},
    {"avx2_vnni", cpu_isa::avx2_vnni},
    {"avx512_core", cpu_isa::avx512_core},
    {"avx512_core_vnni", cpu_isa::avx512_core_vnni},
    {"avx512_core_bf16", cpu_isa::avx512_core_bf16},
    {"avx512_core_amx", cpu_isa::avx512_core_amx},
    {"all", cpu_isa::all},
}};

constexpr std::array<std::pair<std::string_view, dnnl::fpmath_mode>, 4> kFpmathModes{{
    {"strict", dnnl::fpmath_mode::strict},
    {"bf16", dnnl::fpmath_mode::bf16},
    {"f16", dnnl::fpmath_mode::f16},
    {"any", dnnl::fpmath_mode::any},
}};

template <class Table>
std::string names_of(const Table& table) {
    std::string names;
    for (const auto& [name, value] : table) names.append(names.empty() ? "" : "|").append(name);
    return names;
}

cpu_isa isa_of(const std::string& name) {
    for (const auto& [candidate, isa] : kIsas)
        if (candidate == name) return isa;
    device::invalid("isa=" + name + ": expected one of " + names_of(kIsas));
}

}  // namespace

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    const auto take = [&](std::string_view key, const std::string& value) {
        if (key == "threads") {
            parsed.threads = device::parse_threads(value);
        } else if (key == "isa") {
            isa_of(value);  // checked here; applied by apply_isa
            parsed.isa = value;
        } else if (key == "fpmath") {
            const auto found = std::find_if(kFpmathModes.begin(), kFpmathModes.end(),
                                            [&](const auto& entry) { return entry.first == value; });
            if (found == kFpmathModes.end())
                device::invalid("fpmath=" + value + ": expected one of " + names_of(kFpmathModes));
            parsed.fpmath = found->second;
            parsed.fpmath_name = value;
        } else {
            device::unknown_option(key, kName, kAccepted);
        }
    };
    device::for_each_option(options, option_count, kName, kAccepted, take);
    return parsed;
}

std::string apply_isa(const std::optional<std::string>& isa) {
    static std::mutex mutex;
    static std::string applied;  // the isa= value in force, "" before one
    const std::lock_guard lock(mutex);
    if (!isa || *isa == applied) return applied;
    if (!applied.empty())
        device::invalid("isa=" + *isa + ": this process already runs oneDNN with isa=" + applied +
                        " (dnnl_set_max_cpu_isa takes effect once per process)");
    try {
        dnnl::set_max_cpu_isa(isa_of(*isa));
    } catch (const dnnl::error& e) {
        device::invalid("isa=" + *isa + ": oneDNN refuses dnnl_set_max_cpu_isa (" + e.what() +
                        "): the cap must be set before the process creates its first primitive, or "
                        "DNNL_MAX_CPU_ISA set in the environment");
    }
    applied = *isa;
    return applied;
}

std::string isa_name(cpu_isa isa) {
    for (const auto& [name, candidate] : kIsas)
        if (candidate == isa) return std::string(name);
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(isa));
    return hex;
}

}  // namespace kcs::onednn
