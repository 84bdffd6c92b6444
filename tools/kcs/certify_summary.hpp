// What kcs certify prints when a run ends: the run, a table of class and
// profile verdicts with coverage and pass rate apart, the time split, where
// the report is, and the commands that replay what did not pass. It reads
// the report itself, so the screen never says what the report does not.
#pragma once

#include <filesystem>

#include "kcs/reports/report.hpp"

namespace kcs::cli {

void print_certify_summary(const reports::Json& report, const std::filesystem::path& file);

}  // namespace kcs::cli
