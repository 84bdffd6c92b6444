// Writes the report of a small real run (reduce_max, core, smoke, on
// reference-cpu with its own claims) to the file named by argv[1], for the
// schema tests. Exit 0 when written, whatever the verdicts.
#include <chrono>
#include <filesystem>
#include <iostream>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/host/isolated_adapter.hpp"
#include "kcs/reports/environment.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/reports/report_file.hpp"
#include "probes.hpp"

namespace fs = std::filesystem;
using namespace kcs;

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: kcs_write_sample_report REPORT.json\n";
        return 2;
    }
    try {
        const auto start = std::chrono::steady_clock::now();
        reports::RunDescription run;
        run.started = std::chrono::system_clock::now();

        const auto loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
        if (!loaded.ok()) throw std::runtime_error("spec/v1 does not load");
        const spec::Catalog& catalog = loaded.catalog;
        const fs::path claims_file = fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml";
        auto claims = harness::load_claims(claims_file, catalog);
        if (!claims.diagnostics.empty()) throw std::runtime_error("reference-cpu's claims do not load");

        harness::PlanRequest request;
        request.catalog = &catalog;
        request.claims = claims.claims;
        if (!harness::resolve_choice(request, {"core", "smoke", {"reduce_max"}, {}, {}}).empty())
            throw std::runtime_error("core/smoke/reduce_max is not in the catalog");

        const fs::path library = host::resolve_adapter("reference-cpu");
        host::IsolatedAdapter adapter(library);

        run.catalog = &catalog;
        run.profile = request.profile;
        run.depth = request.depth;
        run.claims = request.claims;
        run.operators = request.operators;
        run.adapter = {"reference-cpu", library, {}, std::nullopt, {}, {}};
        if (auto info = adapter.info(); info.ok())
            run.adapter.info = info.value;
        else
            run.adapter.info_error = info.result.describe();
        run.subjects = reports::make_subjects(library, run.claims, catalog, reports::current_executable());
        run.kcs_version = "test";
        run.command_line = reports::current_command_line();
        run.working_directory = fs::current_path().string();
        run.environment = reports::capture_environment();
        run.seeds = request.depth->seeds;
        run.call_timeout = std::chrono::seconds(30);
        run.repro = {"reference-cpu", {}, claims_file.string(), {}, "core", "smoke", std::nullopt};

        reports::RunResults results;
        results.plan = harness::make_plan(request);
        run.plan_digest = harness::plan_digest(results.plan);
        const auto cases_start = std::chrono::steady_clock::now();
        for (const auto& instance : results.plan) {
            const auto probe = suites::find_probe(instance.contract->id, instance.op->id);
            results.results.push_back(
                harness::run_instance(instance, probe, catalog, run.claims, adapter, run.base_seed, run.seeds));
        }
        const auto end = std::chrono::steady_clock::now();

        const reports::ReportTimes times{std::chrono::system_clock::now(), end - start, end - cases_start};
        const auto report = reports::build_report(run, results, reports::RunState::finished, times);
        reports::write_file_atomically(argv[1], report.dump(2) + "\n");
        std::cout << "wrote " << argv[1] << ": " << results.plan.size() << " instances\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "kcs_write_sample_report: " << e.what() << "\n";
        return 1;
    }
}
