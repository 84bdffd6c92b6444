// Did-you-mean for the command line itself: a mistyped subcommand or option
// is named, with the closest real one, instead of CLI11's generic "A
// subcommand is required" or "The following arguments were not expected".
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace kcs::cli {

// After a failed parse of `app`: the first argument left over in the
// deepest subcommand that was parsed which names no subcommand or option
// there, as "unknown subcommand 'certfy' of 'kcs' (did you mean
// 'certify'?)"; nullopt when every leftover is a plain value.
std::optional<std::string> unknown_name_hint(const CLI::App& app);

}  // namespace kcs::cli
