#include "option_list.hpp"

#include <charconv>
#include <set>

#include "adapter_failure.hpp"

namespace kcs::device {

void for_each_option(const char* const* options, std::uint32_t option_count, std::string_view adapter,
                     std::string_view accepted,
                     const std::function<void(std::string_view key, const std::string& value)>& take) {
    if (option_count > 0 && !options) invalid("options is NULL with option_count > 0");
    std::set<std::string, std::less<>> seen;
    for (std::uint32_t i = 0; i < option_count; ++i) {
        if (!options[i]) invalid("option " + std::to_string(i) + " is NULL");
        const std::string_view option = options[i];
        const auto equals = option.find('=');
        if (equals == std::string_view::npos)
            invalid("option '" + std::string(option) + "' is not key=value (" + std::string(adapter) + " accepts " +
                    std::string(accepted) + ")");
        const std::string_view key = option.substr(0, equals);
        if (!seen.emplace(key).second) invalid("option '" + std::string(key) + "' is given twice");
        take(key, std::string(option.substr(equals + 1)));
    }
}

void unknown_option(std::string_view key, std::string_view adapter, std::string_view accepted) {
    invalid("unknown option '" + std::string(key) + "' (" + std::string(adapter) + " accepts " + std::string(accepted) +
            ")");
}

std::size_t parse_power_of_two(std::string_view key, std::string_view value, std::size_t min, std::size_t max) {
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    const bool power_of_two = n > 0 && (n & (n - 1)) == 0;
    if (error != std::errc() || end != value.data() + value.size() || !power_of_two || n < min || n > max)
        invalid(std::string(key) + "=" + std::string(value) + ": expected a power of two from " +
                std::to_string(min) + " to " + std::to_string(max));
    return n;
}

std::size_t parse_choice(std::string_view key, std::string_view value, std::initializer_list<std::string_view> choices) {
    std::string expected;
    std::size_t index = 0;
    for (const std::string_view choice : choices) {
        if (choice == value) return index;
        expected.append(index == 0 ? "" : index + 1 == choices.size() ? " or " : ", ").append(choice);
        ++index;
    }
    invalid(std::string(key) + "=" + std::string(value) + ": expected " + expected);
}

std::uint64_t parse_whole_number(std::string_view key, std::string_view value, std::uint64_t max, const char* what) {
    std::uint64_t n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (error != std::errc() || end != value.data() + value.size() || n > max)
        invalid(std::string(key) + "=" + std::string(value) + ": expected " + what);
    return n;
}

int parse_threads(std::string_view value) {
    int n = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (error != std::errc() || end != value.data() + value.size() || n < 1 || n > kMaxThreads)
        invalid("threads=" + std::string(value) + ": expected a whole number from 1 to " +
                std::to_string(kMaxThreads));
    return n;
}

}  // namespace kcs::device
