// kcs certify --baseline FILE and --flakes FILE, as deqp-runner's: what a
// CI job expects not to pass, so that a known failure does not turn every
// build red while a new one still does. They change the exit code only;
// the report records every verdict as it was.
//
// Baseline: one instance id per line, optionally followed by ",VERDICT"
// (FAIL, CRASH, TIMEOUT, ERROR or INCONCLUSIVE; without one, any of them);
// '#' starts a comment. Flakes: one glob pattern over instance ids per
// line (fnmatch: * ? [...]); a failure of a matching instance is reported
// as a flake and expected.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcs/reports/report.hpp"

namespace kcs::cli {

struct ExpectedFailures {
    struct Entry {
        std::string id;
        std::optional<std::string> verdict;  // none: any failing verdict
        std::string where;                   // "FILE:LINE"
    };
    std::vector<Entry> baseline;
    std::vector<std::string> flakes;  // glob patterns

    bool empty() const { return baseline.empty() && flakes.empty(); }
};

// A line that cannot be read: what() is "FILE:LINE: what is wrong" (exit 2).
class ExpectationFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads either file into `into` (empty paths are skipped).
void read_baseline(const std::filesystem::path& file, ExpectedFailures& into);
void read_flakes(const std::filesystem::path& file, ExpectedFailures& into);

// How a finished run compares with what was expected, instance ids each.
struct CiComparison {
    std::vector<std::string> expected;    // failed as the baseline says
    std::vector<std::string> flaky;       // failed, matching a flake pattern
    std::vector<std::string> unexpected;  // failed, listed nowhere (or with another verdict: "ID: CRASH, baseline FAIL")
    std::vector<std::string> fixed;       // in the baseline, planned, and passed: the baseline is out of date
    std::size_t missing = 0;              // instances with no verdict (an interrupted run)

    bool passes() const { return unexpected.empty() && fixed.empty() && missing == 0; }
};

CiComparison compare_with_expected(const reports::Json& report, const ExpectedFailures& expected);

// The comparison for the terminal: counts, then each id under its heading.
std::string describe(const CiComparison& comparison);

}  // namespace kcs::cli
