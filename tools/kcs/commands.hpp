// The subcommands of kcs, one registration function per group.
#pragma once

#include <CLI/CLI.hpp>

namespace kcs::cli {

// kcs spec lint|list|show|digest. Sets exit_code when the command runs.
void add_spec_commands(CLI::App& app, int& exit_code);

// kcs adapter list|check.
void add_adapter_commands(CLI::App& app, int& exit_code);

// kcs plan.
void add_plan_command(CLI::App& app, int& exit_code);

// kcs run: replay one case.
void add_run_command(CLI::App& app, int& exit_code);

// kcs certify: run a profile and write the report.
void add_certify_command(CLI::App& app, int& exit_code);

// kcs merge: join the reports of a sharded run.
void add_merge_command(CLI::App& app, int& exit_code);

// kcs calibrate: the three-state matrix.
void add_calibrate_command(CLI::App& app, int& exit_code);

// kcs keygen|sign|verify: keys, signing and verifying reports.
void add_signing_commands(CLI::App& app, int& exit_code);

// kcs incident list|show|replay.
void add_incident_commands(CLI::App& app, int& exit_code);

// kcs table: verified reports side by side, classes x adapters.
void add_table_command(CLI::App& app, int& exit_code);

// kcs render: a report as HTML, Markdown, CSV or JUnit XML.
void add_render_command(CLI::App& app, int& exit_code);

// kcs diff: what changed between two reports of one adapter.
void add_diff_command(CLI::App& app, int& exit_code);

// kcs rejudge: a report's verdicts under another catalog version.
void add_rejudge_command(CLI::App& app, int& exit_code);

// kcs completion bash: a completion script made from the commands above.
void add_completion_command(CLI::App& app, int& exit_code);

}  // namespace kcs::cli
