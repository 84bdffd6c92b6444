// The options of an adapter's open(): key=value strings, each key at most
// once. for_each_option checks the list's shape and hands each pair to the
// adapter, which refuses keys it does not know with unknown_option().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>

namespace kcs::device {

// Calls `take(key, value)` for each option in order. Throws AdapterFailure
// (KCS_INVALID_ARGUMENT) for a NULL list or entry, an entry without '=',
// or a key given twice; `accepted` ("device=, local_size=") goes into the
// message so that the user sees what the adapter takes.
void for_each_option(const char* const* options, std::uint32_t option_count, std::string_view adapter,
                     std::string_view accepted,
                     const std::function<void(std::string_view key, const std::string& value)>& take);

[[noreturn]] void unknown_option(std::string_view key, std::string_view adapter, std::string_view accepted);

// "local_size=N": a power of two from `min` to `max`.
std::size_t parse_power_of_two(std::string_view key, std::string_view value, std::size_t min, std::size_t max);

// "KEY=VALUE" where VALUE is one of `choices` ("decline", "offer"): its
// index in them; otherwise KCS_INVALID_ARGUMENT naming them
// ("f16_matmul=yes: expected decline or offer").
std::size_t parse_choice(std::string_view key, std::string_view value, std::initializer_list<std::string_view> choices);

// "KEY=N" for a whole number N from 0 to `max`; otherwise
// KCS_INVALID_ARGUMENT ("workspace=1k: expected a number of bytes").
std::uint64_t parse_whole_number(std::string_view key, std::string_view value, std::uint64_t max, const char* what);

// "threads=N" of the CPU adapters: a whole number from 1 to kMaxThreads.
inline constexpr int kMaxThreads = 1024;
int parse_threads(std::string_view value);

}  // namespace kcs::device
