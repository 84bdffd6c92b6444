#include "expected_failures.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>

namespace kcs::cli {

namespace {

bool failing(const std::string& verdict) {
    return verdict == "FAIL" || verdict == "CRASH" || verdict == "TIMEOUT" || verdict == "ERROR" ||
           verdict == "INCONCLUSIVE";
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// Each meaningful line (comment and blanks gone) with its "FILE:LINE".
template <typename Take>
void read_lines(const std::filesystem::path& file, Take take) {
    std::ifstream in(file);
    if (!in) throw ExpectationFileError(file.string() + ": cannot be read");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string text = trimmed(line.substr(0, line.find('#')));
        if (!text.empty()) take(text, file.string() + ":" + std::to_string(number));
    }
}

}  // namespace

void read_baseline(const std::filesystem::path& file, ExpectedFailures& into) {
    if (file.empty()) return;
    read_lines(file, [&](const std::string& text, const std::string& where) {
        ExpectedFailures::Entry entry{trimmed(text.substr(0, text.find(','))), std::nullopt, where};
        if (const auto comma = text.find(','); comma != std::string::npos) {
            entry.verdict = trimmed(text.substr(comma + 1));
            if (!failing(*entry.verdict))
                throw ExpectationFileError(where + ": verdict '" + *entry.verdict +
                                           "' is not one a baseline lists (FAIL, CRASH, TIMEOUT, ERROR, INCONCLUSIVE)");
        }
        if (entry.id.empty() || entry.id.find(' ') != std::string::npos)
            throw ExpectationFileError(where + ": expected an instance id, optionally followed by ,VERDICT");
        into.baseline.push_back(std::move(entry));
    });
}

void read_flakes(const std::filesystem::path& file, ExpectedFailures& into) {
    if (file.empty()) return;
    read_lines(file, [&](const std::string& text, const std::string& where) {
        if (text.find(' ') != std::string::npos)
            throw ExpectationFileError(where + ": expected one glob pattern over instance ids, without spaces");
        into.flakes.push_back(text);
    });
}

CiComparison compare_with_expected(const reports::Json& report, const ExpectedFailures& expected) {
    std::map<std::string, const ExpectedFailures::Entry*> baseline;
    for (const auto& entry : expected.baseline) baseline[entry.id] = &entry;
    CiComparison out;
    for (const auto& instance : report.at("predicate").at("instances")) {
        const std::string id = instance.at("id").get<std::string>();
        const auto& verdict_json = instance.at("verdict");
        if (!verdict_json.is_string()) {
            ++out.missing;
            continue;
        }
        const std::string verdict = verdict_json.get<std::string>();
        const auto listed = baseline.find(id);
        if (!failing(verdict)) {
            if (listed != baseline.end() && verdict == "PASS") out.fixed.push_back(id);
            continue;
        }
        const bool flaky = std::any_of(expected.flakes.begin(), expected.flakes.end(), [&](const std::string& p) {
            return fnmatch(p.c_str(), id.c_str(), 0) == 0;
        });
        if (listed != baseline.end() && (!listed->second->verdict || *listed->second->verdict == verdict))
            out.expected.push_back(id + ": " + verdict);
        else if (flaky)
            out.flaky.push_back(id + ": " + verdict);
        else if (listed != baseline.end())
            out.unexpected.push_back(id + ": " + verdict + ", baseline " + *listed->second->verdict + " (" +
                                     listed->second->where + ")");
        else
            out.unexpected.push_back(id + ": " + verdict);
    }
    return out;
}

std::string describe(const CiComparison& c) {
    std::string out = "expected failures: " + std::to_string(c.expected.size()) + " as the baseline lists, " +
                      std::to_string(c.flaky.size()) + " flaky, " + std::to_string(c.unexpected.size()) +
                      " unexpected, " + std::to_string(c.fixed.size()) + " listed but passed";
    if (c.missing) out += ", " + std::to_string(c.missing) + " without a verdict";
    out += "\n";
    const auto list = [&out](const char* heading, const std::vector<std::string>& ids) {
        if (ids.empty()) return;
        out += std::string("  ") + heading + ":\n";
        for (const auto& id : ids) out += "    " + id + "\n";
    };
    list("unexpected (not in the baseline)", c.unexpected);
    list("passed though listed (remove from the baseline)", c.fixed);
    list("expected (in the baseline)", c.expected);
    list("flaky (matching --flakes)", c.flaky);
    return out;
}

}  // namespace kcs::cli
