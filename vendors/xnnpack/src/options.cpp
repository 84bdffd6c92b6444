#include "options.hpp"

#include <string>
#include <string_view>

#include "option_list.hpp"

namespace kcs::xnnpack {

namespace {

constexpr const char* kName = "xnnpack";
constexpr const char* kAccepted = "threads=N, f16_matmul=decline|offer";

}  // namespace

Options parse_options(const char* const* options, std::uint32_t option_count) {
    Options parsed;
    device::for_each_option(options, option_count, kName, kAccepted,
                            [&](std::string_view key, const std::string& value) {
                                if (key == "threads") {
                                    parsed.threads = device::parse_threads(value);
                                } else if (key == "f16_matmul") {
                                    parsed.f16_matmul = device::parse_choice(key, value, {"decline", "offer"}) == 1;
                                } else {
                                    device::unknown_option(key, kName, kAccepted);
                                }
                            });
    return parsed;
}

}  // namespace kcs::xnnpack
