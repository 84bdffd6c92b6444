#include "run_setup.hpp"

#include <chrono>
#include <iostream>

#include "catalog_location.hpp"
#include "kcs_root.hpp"
#include "kcs/spec/catalog_diff.hpp"
#include "kcs/spec/text_patterns.hpp"

namespace kcs::cli {

namespace fs = std::filesystem;

void print_diagnostics(const spec::Diagnostics& diags) {
    for (const auto& d : diags.all()) std::cerr << d.str() << "\n";
}

std::string adapter_name(const std::string& name_or_path) {
    std::string name = fs::path(name_or_path).filename().string();
    const std::string prefix = "libkcs-adapter-", suffix = ".so";
    if (name.starts_with(prefix) && name.ends_with(suffix) && name.size() > prefix.size() + suffix.size())
        name = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    return name;
}

std::optional<fs::path> built_in_claims(const std::string& adapter) {
    const std::string name = adapter_name(adapter);
    if (!spec::is_plain_id(name)) return std::nullopt;
    const fs::path file = fs::path(KCS_SOURCE_DIR) / "vendors" / name / "claims.yaml";
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return std::nullopt;
    return file;
}

namespace {

// The newest carried catalog when `chosen` is an older release, after
// checking that the step from `chosen` to it is one SPEC.md section 10
// allows (a minor or patch step measures all the older release did, so
// its protocols can judge the older release's instances); null when
// `chosen` is the newest. False after printing why this build cannot
// certify under `chosen`.
bool load_protocols(const spec::Catalog& chosen, std::unique_ptr<spec::Catalog>& protocols) {
    std::error_code ec;
    if (fs::equivalent(chosen.root, default_catalog(), ec)) return true;  // the common case: nothing to load again
    auto newest = spec::load_catalog(default_catalog());
    if (!newest.ok() || spec::compare_versions(chosen.spec_version, newest.catalog.spec_version) >= 0) return true;
    const auto allowed = spec::version_step(chosen.spec_version, newest.catalog.spec_version);
    const spec::CatalogDiff diff = spec::diff_catalogs(chosen, newest.catalog);
    if (!allowed || *allowed == spec::VersionStep::major || diff.needed() > *allowed) {
        std::string first;
        for (const auto& c : diff.changes)
            if (first.empty() && c.needs == spec::VersionStep::major) first = c.subject + ": " + c.change + ": " + c.detail;
        std::cerr << "kcs: error: this kcs's probes implement the measurement protocols of spec "
                  << newest.catalog.spec_version << ", and " << chosen.spec_version << " -> "
                  << newest.catalog.spec_version << " is not a compatible step"
                  << (first.empty() ? std::string() : " (" + first + ")") << "; certify under spec "
                  << chosen.spec_version << " with the kcs release that implements it\n";
        return false;
    }
    protocols = std::make_unique<spec::Catalog>(std::move(newest.catalog));
    return true;
}

}  // namespace

std::unique_ptr<RunSetup> prepare_run(const RunChoice& choice) {
    auto setup = std::make_unique<RunSetup>();
    auto loaded = spec::load_catalog(catalog_named(choice.spec_dir));
    if (!loaded.ok()) {
        print_diagnostics(loaded.diagnostics);
        std::cerr << "kcs: error: the catalog in " << loaded.catalog.root.string() << " has "
                  << loaded.diagnostics.all().size() << " problem(s); run 'kcs spec lint "
                  << loaded.catalog.root.string() << "' and fix them first\n";
        return nullptr;
    }
    setup->catalog = std::move(loaded.catalog);
    const spec::Catalog& catalog = setup->catalog;
    if (!load_protocols(catalog, setup->protocols)) return nullptr;

    harness::PlanRequest& request = setup->request;
    request.catalog = &catalog;
    request.protocols = setup->protocols.get();
    if (const auto wrong = harness::resolve_choice(request, choice.plan); !wrong.empty()) {
        print_diagnostics(wrong);
        return nullptr;
    }
    // A pattern that selects nothing is a typo, not an empty run.
    if (const auto unmatched = harness::unmatched_patterns(request); !unmatched.empty()) {
        for (const auto& u : unmatched)
            std::cerr << u << ": error: matches no instance of the plan (ids read like "
                      << "v1/C-ACC-01/softmax/f32-f32/default; kcs plan lists them)\n";
        return nullptr;
    }

    setup->claims_given = !choice.claims.empty();
    const auto claims_file =
        setup->claims_given ? std::optional<fs::path>(choice.claims) : built_in_claims(choice.adapter);
    if (!claims_file) {
        request.claims = harness::default_claims(catalog);
        return setup;
    }
    auto claims = harness::load_claims(*claims_file, catalog);
    if (!claims.diagnostics.empty()) {
        print_diagnostics(claims.diagnostics);
        std::cerr << "kcs: error: the claims file " << claims_file->string() << " has "
                  << claims.diagnostics.all().size() << " problem(s)\n";
        return nullptr;
    }
    request.claims = std::move(claims.claims);
    return setup;
}

host::IsolationOptions isolation_options(const AdapterChoice& adapter) {
    host::IsolationOptions options;
    options.adapter_options = adapter.options;
    options.call_timeout = std::chrono::seconds(adapter.timeout_s);
    return options;
}

reports::ReproCommand repro_command(const RunChoice& choice, const RunSetup& setup, const AdapterChoice& adapter) {
    // A name is found again through the search path; a path must not
    // depend on the folder the replay is started from, nor name this
    // machine's checkout: under it, it is "${KCS_ROOT}/..." (kcs_root.hpp).
    const bool is_path = choice.adapter.find('/') != std::string::npos || choice.adapter.ends_with(".so");
    reports::ReproCommand repro;
    repro.adapter = is_path ? rooted(choice.adapter) : choice.adapter;
    repro.options = adapter.options;
    const auto& claims = setup.request.claims;
    if (!claims.file.empty()) repro.claims_file = rooted(claims.file);
    if (!choice.spec_dir.empty()) repro.spec_dir = rooted(catalog_named(choice.spec_dir));
    repro.profile = setup.request.profile->id;
    repro.depth = setup.request.depth->id;
    if (adapter.timeout_s != kDefaultTimeoutSeconds) repro.timeout_s = adapter.timeout_s;
    return repro;
}

}  // namespace kcs::cli
