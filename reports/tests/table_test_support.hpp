// Report Statements made up per test for the comparison table: only the
// parts a table reads (adapter, spec, profile, depth, instances with their
// cases' evidence, summary), consistent with each other.
#pragma once

#include <string>
#include <vector>

#include "kcs/reports/table.hpp"

namespace kcs::reports::testing {

inline constexpr const char* kSpecDigest = "sha256:654f4cbefd9e08240cc265141eca21d57b9587f80a5f4d5742240228855d33d4";

// One case's verdict and evidence; an empty figure name is a verdict
// without a measurement (a crash).
struct MadeCase {
    std::string verdict;
    std::string figure_name;
    Json figure = 0.0;
    Json bound = 0.0;
};

// verdict: null for a missing instance; applicable false makes it NOT_APPLICABLE.
struct MadeInstance {
    std::string class_id;
    std::string name;  // the part after the class in the id: "matmul/f32xf32-f32/k-sweep"
    Json verdict;
    std::vector<MadeCase> cases;
    bool applicable = true;
};

// An instance whose one case has this verdict and evidence.
MadeInstance measured(const std::string& class_id, const std::string& name, const std::string& verdict,
                      const std::string& figure_name, Json figure, Json bound);

struct MadeAdapter {
    std::string name = "reference-cpu";
    std::string device = "host CPU";
    std::string vendor = "KCS";
    std::vector<std::string> options;
};

struct MadeReport {
    MadeAdapter adapter;
    std::vector<MadeInstance> instances;
    std::string spec_version = "1.0.0";
    std::string spec_digest = kSpecDigest;
    std::string depth = "quick";
    std::vector<std::string> operators;  // kcs certify --op; empty: every operator
    std::vector<std::string> include;    // kcs certify --include
    std::string started = "2026-12-07T10:00:00.000Z";
    std::string driver_version;
};

// The Statement, its summary computed from the instances as the report
// writer would.
Json statement_of(const MadeReport& report);

TableEntry entry_of(const MadeReport& report, const std::string& source, Admission admission = Admission::verified);

// RFC 4180 records of a CSV text.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

}  // namespace kcs::reports::testing
