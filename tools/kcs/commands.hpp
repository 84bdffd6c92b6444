// The subcommands of kcs, one registration function per group.
#pragma once

#include <CLI/CLI.hpp>

namespace kcs::cli {

// kcs spec lint|list|show|digest. Sets exit_code when the command runs.
void add_spec_commands(CLI::App& app, int& exit_code);

// kcs adapter list|check.
void add_adapter_commands(CLI::App& app, int& exit_code);

}  // namespace kcs::cli
