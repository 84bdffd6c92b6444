#include "options.hpp"

#include <string>
#include <string_view>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::torch {

namespace {

constexpr const char* kName = "torch";
constexpr const char* kAccepted = "threads=N, deterministic=true|false, flush_denormal=true|false, gelu=none|tanh";

bool parse_bool(std::string_view key, const std::string& value) {
    if (value != "true" && value != "false") device::invalid(std::string(key) + "=" + value + ": expected true or false");
    return value == "true";
}

}  // namespace

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    device::for_each_option(options, option_count, kName, kAccepted,
                            [&](std::string_view key, const std::string& value) {
                                if (key == "threads") {
                                    parsed.threads = device::parse_threads(value);
                                } else if (key == "deterministic") {
                                    parsed.deterministic = parse_bool(key, value);
                                } else if (key == "flush_denormal") {
                                    parsed.flush_denormal = parse_bool(key, value);
                                } else if (key == "gelu") {
                                    if (value != "none" && value != "tanh")
                                        device::invalid("gelu=" + value + ": expected none or tanh");
                                    parsed.gelu_tanh = value == "tanh";
                                } else {
                                    device::unknown_option(key, kName, kAccepted);
                                }
                            });
    return parsed;
}

}  // namespace kcs::torch
