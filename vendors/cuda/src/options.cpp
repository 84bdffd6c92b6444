#include "options.hpp"

#include <limits>
#include <string_view>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::cuda {

namespace {

constexpr const char* kName = "cuda";
constexpr const char* kAccepted =
    "device=N, fast_math=true|false, ftz=true|false, prec_div=true|false, prec_sqrt=true|false, fmad=true|false, "
    "local_size=N, include=PATH";

std::string flag(const char* name, bool value) { return std::string(name) + (value ? "=true" : "=false"); }

bool parse_bool(std::string_view key, const std::string& value) {
    return device::parse_choice(key, value, {"false", "true"}) == 1;
}

}  // namespace

std::vector<std::string> nvrtc_flags(const FloatControls& c) {
    std::vector<std::string> flags;
    if (c.fast_math) flags.emplace_back("--use_fast_math");
    flags.push_back(flag("-ftz", c.ftz));
    flags.push_back(flag("-prec-div", c.prec_div));
    flags.push_back(flag("-prec-sqrt", c.prec_sqrt));
    flags.push_back(flag("-fmad", c.fmad));
    return flags;
}

std::string describe(const FloatControls& controls) {
    std::string text;
    for (const std::string& flag : nvrtc_flags(controls)) text.append(text.empty() ? "" : " ").append(flag);
    return text;
}

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    // The controls given explicitly, to check against fast_math's.
    std::optional<bool> ftz, prec_div, prec_sqrt, fmad;
    device::for_each_option(options, option_count, kName, kAccepted, [&](std::string_view key, const std::string& value) {
        if (key == "device") {
            parsed.device = static_cast<int>(device::parse_whole_number(key, value, std::numeric_limits<int>::max(),
                                                                        "a device index from 0"));
        } else if (key == "fast_math") {
            parsed.controls.fast_math = parse_bool(key, value);
        } else if (key == "ftz") {
            ftz = parse_bool(key, value);
        } else if (key == "prec_div") {
            prec_div = parse_bool(key, value);
        } else if (key == "prec_sqrt") {
            prec_sqrt = parse_bool(key, value);
        } else if (key == "fmad") {
            fmad = parse_bool(key, value);
        } else if (key == "local_size") {
            parsed.local_size = device::parse_power_of_two(key, value, 1, kMaxLocalSize);
        } else if (key == "include") {
            if (value.empty()) device::invalid("include= needs the folder that holds cuda_fp16.h");
            parsed.include = value;
        } else {
            device::unknown_option(key, kName, kAccepted);
        }
    });
    FloatControls& c = parsed.controls;
    if (c.fast_math) {
        // What --use_fast_math implies (nvcc's documentation of the option).
        const struct {
            const char* name;
            std::optional<bool> given;
            bool implied;
        } implied[] = {{"ftz", ftz, true}, {"prec_div", prec_div, false}, {"prec_sqrt", prec_sqrt, false},
                       {"fmad", fmad, true}};
        for (const auto& control : implied)
            if (control.given && *control.given != control.implied)
                device::invalid(std::string(control.name) + "=" + (*control.given ? "true" : "false") +
                                " contradicts fast_math=true, which implies " + control.name + "=" +
                                (control.implied ? "true" : "false"));
        c.ftz = true;
        c.prec_div = false;
        c.prec_sqrt = false;
        c.fmad = true;
    } else {
        c.ftz = ftz.value_or(c.ftz);
        c.prec_div = prec_div.value_or(c.prec_div);
        c.prec_sqrt = prec_sqrt.value_or(c.prec_sqrt);
        c.fmad = fmad.value_or(c.fmad);
    }
    return parsed;
}

}  // namespace kcs::cuda
