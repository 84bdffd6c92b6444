// kcs calibrate: the matrix that proves the catalog can tell a conforming
// implementation from each violating one, and passes every claim
// conformer under the claims that allow it (spec/SPEC.md section 6).
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/suites/calibration.hpp"
#include "probes.hpp"
#include "run_setup.hpp"

namespace kcs::cli {

namespace {

void print_row(const suites::CalibrationRow& row) {
    // A claim conformer's passing rows are counted in its summary line, not listed.
    if (row.conformer && row.sound) return;
    std::cout << std::left << std::setw(16) << row.state() << std::right << row.instance_id << "  " << row.implementation
              << "\n    expected " << row.expected << "\n    observed " << row.observed << "\n";
    if (row.functional)
        std::cout << "    functional test " << (row.functional->passed ? "passes" : "FAILS") << " (worst "
                  << std::setprecision(3) << row.functional->worst_ratio << " x the allowed difference)\n";
    if (!row.sound) std::cout << "    why: " << row.reason << "\n";
    std::cout.flush();
}

namespace fs = std::filesystem;

// The claim conformers of the calibration adapter: one claims file each in
// vendors/calibration/conformers/, named by the conformer (NAME.yaml gives
// conforming=NAME), planned under profile core at the run's depth, over
// the operators its claims state.
std::optional<std::vector<suites::ClaimConformer>> load_conformers(const RunSetup& setup) {
    const fs::path folder = fs::path(KCS_SOURCE_DIR) / "vendors" / "calibration" / "conformers";
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".yaml") files.push_back(entry.path());
    if (ec) {
        std::cerr << "kcs: error: " << folder.string() << ": cannot list the claim conformers (" << ec.message()
                  << ")\n";
        return std::nullopt;
    }
    std::sort(files.begin(), files.end());
    std::vector<suites::ClaimConformer> conformers;
    for (const auto& file : files) {
        auto claims = harness::load_claims(file, setup.catalog);
        if (!claims.diagnostics.empty()) {
            print_diagnostics(claims.diagnostics);
            return std::nullopt;
        }
        harness::PlanRequest request = setup.request;
        request.profile = setup.catalog.find_profile("core");
        request.claims = claims.claims;
        // calibrate's --op is CalibrationRequest::only_operator, applied to these plans too.
        request.operators = suites::stated_operators(setup.catalog, claims.claims, setup.request.claims);
        conformers.push_back({file.stem().string(), claims.claims, harness::make_plan(request)});
    }
    return conformers;
}

// One line per conformer: its rows by outcome, and the claims it makes
// that reference-cpu does not.
void print_conformer_summary(const std::vector<suites::ClaimConformer>& conformers,
                             const std::vector<suites::ClassCalibration>& classes, const harness::Claims& reference) {
    std::cout << "\nclaim conformer       PASS  N/A  FALSE_ALARM  claims beside reference-cpu's (profile core)\n";
    for (const auto& c : conformers) {
        std::size_t pass = 0, not_applicable = 0, alarms = 0;
        for (const auto& k : classes)
            for (const auto& row : k.rows) {
                if (row.implementation != "conforming=" + c.name) continue;
                if (!row.sound) ++alarms;
                else if (row.observed.starts_with("PASS")) ++pass;
                else ++not_applicable;
            }
        std::string claims;
        for (const auto& [id, value] : c.claims.values)
            if (value != reference.at(id)) claims += (claims.empty() ? "" : ", ") + id + ": " + value;
        std::cout << std::left << std::setw(20) << c.name << std::right << std::setw(6) << pass << std::setw(5)
                  << not_applicable << std::setw(13) << alarms << "  " << claims << "\n";
    }
}

}  // namespace

void add_calibrate_command(CLI::App& app, int& exit_code) {
    struct Options {
        RunChoice choice;
        std::string only_class, only_op;
        std::uint64_t seed = 1;
        int timeout_s = kDefaultTimeoutSeconds;
    };
    auto o = std::make_shared<Options>();
    o->choice.adapter = "reference-cpu";
    o->choice.plan.profile = "strict";  // every class applies, gated ones included
    o->choice.plan.depth = "smoke";

    auto* calibrate = app.add_subcommand(
        "calibrate", "Prove the catalog separates reference-cpu from every calibration violator, and passes every claim conformer");
    calibrate->add_option("--depth", o->choice.plan.depth, "smoke or quick")
        ->check(CLI::IsMember({"smoke", "quick"}))
        ->capture_default_str();
    calibrate->add_option("--class", o->only_class, "Only this class (e.g. C-PRC-01)");
    calibrate->add_option("--op", o->only_op, "Only this operator (e.g. matmul)");
    calibrate->add_option("--seed", o->seed, "Base seed")->capture_default_str();
    calibrate->add_option("--timeout", o->timeout_s, "Seconds one adapter call may take")->capture_default_str();
    calibrate->add_option("--spec", o->choice.spec_dir, "Catalog folder (default: the newest carried catalog)");
    calibrate->footer(
        "For each instance a class's calibration exercises: reference-cpu must PASS; each violator the catalog names "
        "must FAIL with the class and its signature, and must pass the basic functional test. Anything else is "
        "UNDER_SPECIFIED. Then every claim conformer (vendors/calibration/conformers/NAME.yaml, run as "
        "conforming=NAME under those claims and profile core) must PASS or be NOT_APPLICABLE on every instance of "
        "its plan; anything else is a FALSE_ALARM, and every claim value a profile accepts must be made by "
        "reference-cpu or by a conformer. Exit 0 when every calibrated class is SOUND (with --class, when that "
        "class is calibrated at all and SOUND) and every claim value has its conformer, 1 otherwise, 2 on a usage "
        "or input error.");
    calibrate->callback([&exit_code, o] {
        auto setup = prepare_run(o->choice);
        if (!setup) {
            exit_code = 2;
            return;
        }
        if (!o->only_class.empty() && !setup->catalog.find_class(o->only_class)) {
            std::cerr << "kcs: error: --class: no class '" << o->only_class << "' in the catalog\n";
            exit_code = 2;
            return;
        }
        if (!o->only_op.empty() && !setup->catalog.find_operator(o->only_op)) {
            std::cerr << "kcs: error: --op: no operator '" << o->only_op << "' in the catalog\n";
            exit_code = 2;
            return;
        }
        const auto plan = harness::make_plan(setup->request);
        suites::CalibrationRequest request;
        request.catalog = &setup->catalog;
        request.plan = &plan;
        request.claims = &setup->request.claims;
        request.conforming_adapter = host::resolve_adapter("reference-cpu");
        request.calibration_adapter = host::resolve_adapter("calibration");
        if (!o->only_class.empty()) request.only_class = o->only_class;
        if (!o->only_op.empty()) request.only_operator = o->only_op;
        request.seed = o->seed;
        request.seeds = setup->request.depth->seeds;
        request.call_timeout = std::chrono::seconds(o->timeout_s);
        request.find_probe = [](const std::string& k, const std::string& op) { return suites::find_probe(k, op); };
        request.on_row = print_row;
        const auto conformers = load_conformers(*setup);
        if (!conformers) {
            exit_code = 2;
            return;
        }
        request.conformers = &*conformers;
        const auto classes = suites::calibrate(request);

        std::cout << "\nclass      result           rows  not yet covered (no probe)\n";
        bool all_sound = true;
        for (const auto& c : classes) {
            const char* state = c.rows.empty() ? "NOT COVERED" : c.sound() ? "SOUND" : "UNDER_SPECIFIED";
            // A class asked for by name that calibrated nothing proved nothing.
            if (c.rows.empty() ? !o->only_class.empty() : !c.sound()) all_sound = false;
            std::cout << std::left << std::setw(11) << c.class_id << std::setw(17) << state << std::setw(6)
                      << c.rows.size();
            for (std::size_t i = 0; i < c.not_covered.size(); ++i) std::cout << (i ? ", " : "") << c.not_covered[i];
            std::cout << "\n";
        }
        print_conformer_summary(*conformers, classes, setup->request.claims);
        const auto uncovered =
            suites::claim_values_without_conformer(setup->catalog, setup->request.claims, *conformers);
        for (const auto& value : uncovered)
            std::cout << "NO CONFORMER     claim " << value << ": accepted, but no calibration implementation makes it\n";
        exit_code = all_sound && uncovered.empty() ? 0 : 1;
    });
}

}  // namespace kcs::cli
