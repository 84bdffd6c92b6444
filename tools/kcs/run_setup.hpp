// What kcs plan, run and certify share: the catalog, the plan request
// (profile, depth, operators) and the claims, resolved from the options a
// user gave, with every problem printed as the CLI shows it.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/host/isolated_adapter.hpp"
#include "kcs/reports/repro.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

struct RunChoice {
    std::string adapter;   // a name (reference-cpu) or a path to libkcs-adapter-NAME.so
    std::string claims;    // --claims; empty: the adapter's own file, else the catalog defaults
    std::string spec_dir;  // --spec; empty: the newest carried catalog
    harness::PlanChoice plan;
};

struct RunSetup {
    spec::Catalog catalog;
    // Under an older release: the newest carried catalog, whose protocols
    // the probes implement (request.protocols points to it).
    std::unique_ptr<spec::Catalog> protocols;
    harness::PlanRequest request;  // points into catalog: a RunSetup stays where it was made
    bool claims_given = false;     // --claims named the file (else the adapter's own, or defaults)
};

// nullptr after printing the problems to stderr; the CLI then exits 2.
std::unique_ptr<RunSetup> prepare_run(const RunChoice& choice);

void print_diagnostics(const spec::Diagnostics& diags);

// The adapter's name from a name or a path to libkcs-adapter-NAME.so.
std::string adapter_name(const std::string& name_or_path);

// The claims file a built-in adapter keeps in the source tree
// (vendors/NAME/claims.yaml), used when --claims is not given.
std::optional<std::filesystem::path> built_in_claims(const std::string& adapter);

// How kcs run and certify talk to the adapter: its options and the time
// one call may take before it counts as hung (TIMEOUT).
inline constexpr int kDefaultTimeoutSeconds = 30;
struct AdapterChoice {
    std::vector<std::string> options;  // key=value
    int timeout_s = kDefaultTimeoutSeconds;
};

host::IsolationOptions isolation_options(const AdapterChoice& adapter);

// The command that replays one case of a run made with these choices: the
// adapter as named (a path made absolute), the claims file in force, and
// the catalog, profile and depth.
reports::ReproCommand repro_command(const RunChoice& choice, const RunSetup& setup, const AdapterChoice& adapter);

}  // namespace kcs::cli
