// kcs diff: what changed between two reports of the same adapter, e.g.
// before and after a driver or library update. It compares what the
// reports record, instance by instance: verdicts, the figures that moved
// beyond their run-to-run spread, instances one report has and the other
// lacks, and the environment the runs saw (the adapter's info(), its
// options and claims, the catalog, the profile and depth, kcs, the host).
// A verdict regressed when the newer report's is more severe (SPEC.md
// section 5's order), or when it has none where the older had one.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/reports/report.hpp"

namespace kcs::reports {

struct VerdictChange {
    std::string instance_id;
    std::string before, after;  // "PASS", "FAIL", ...; "none" where the report records no verdict
    bool regressed = false;
    std::string message;  // the newer report's message for the instance's worst case, if any
};

// An instance whose verdict held but whose figure (its worst case's)
// moved by more than either report's spread over its seeds.
struct FigureMove {
    std::string instance_id;
    std::string figure_name;
    double before = 0, after = 0;
    double bound = 0;   // the newer report's
    double spread = 0;  // the larger of the two reports' max - min over the instance's cases
};

struct FieldChange {
    std::string field;  // "adapter.info.driver_version", "environment.compiler", ...
    std::string before, after;
};

struct ReportDiff {
    std::string adapter;
    std::vector<FieldChange> environment;
    std::vector<VerdictChange> verdicts;
    std::vector<FigureMove> figures;
    std::vector<std::string> added, removed;  // instance ids only the newer, only the older has
    std::size_t compared = 0;                 // instances both have
    bool same_catalog = true;                 // the spec digests agree

    bool regressed() const;
};

// The reports are not two KCS reports of one adapter: what() says why.
class DiffError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// `before` and `after` are Statements (report.json, or an envelope's payload).
ReportDiff diff_reports(const Json& before, const Json& after);

// For people (Markdown) and for machines (JSON); the names are the reports' files.
std::string diff_markdown(const ReportDiff& diff, std::string_view before_name, std::string_view after_name);
Json diff_json(const ReportDiff& diff, std::string_view before_name, std::string_view after_name);

}  // namespace kcs::reports
