#include "options.hpp"

#include <string>
#include <string_view>

#include "option_list.hpp"

namespace kcs::torch {

namespace {

constexpr const char* kName = "torch";
constexpr const char* kAccepted = "threads=N, deterministic=true|false, flush_denormal=true|false, gelu=none|tanh";

bool parse_bool(std::string_view key, const std::string& value) {
    return device::parse_choice(key, value, {"false", "true"}) == 1;
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
                                    parsed.gelu_tanh = device::parse_choice(key, value, {"none", "tanh"}) == 1;
                                } else {
                                    device::unknown_option(key, kName, kAccepted);
                                }
                            });
    return parsed;
}

}  // namespace kcs::torch
