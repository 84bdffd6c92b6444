// kcs calibrate: the three-state matrix that proves the catalog can tell a
// conforming implementation from each violating one (spec/SPEC.md section 6).
#include <iomanip>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/suites/calibration.hpp"
#include "probes.hpp"
#include "run_setup.hpp"

namespace kcs::cli {

namespace {

void print_row(const suites::CalibrationRow& row) {
    std::cout << (row.sound ? "SOUND           " : "UNDER_SPECIFIED ") << row.instance_id << "  " << row.implementation
              << "\n    expected " << row.expected << "\n    observed " << row.observed << "\n";
    if (row.functional)
        std::cout << "    functional test " << (row.functional->passed ? "passes" : "FAILS") << " (worst "
                  << std::setprecision(3) << row.functional->worst_ratio << " x the allowed difference)\n";
    if (!row.sound) std::cout << "    why: " << row.reason << "\n";
    std::cout.flush();
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
        "calibrate", "Prove the catalog separates reference-cpu from every calibration violator (three states)");
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
        "UNDER_SPECIFIED. Exit 0 when every calibrated class is SOUND, 1 otherwise, 2 on a usage or input error.");
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
        const auto classes = suites::calibrate(request);

        std::cout << "\nclass      result           rows  not yet covered (no probe)\n";
        bool all_sound = true;
        for (const auto& c : classes) {
            const char* state = c.rows.empty() ? "NOT COVERED" : c.sound() ? "SOUND" : "UNDER_SPECIFIED";
            if (!c.rows.empty() && !c.sound()) all_sound = false;
            std::cout << std::left << std::setw(11) << c.class_id << std::setw(17) << state << std::setw(6)
                      << c.rows.size();
            for (std::size_t i = 0; i < c.not_covered.size(); ++i) std::cout << (i ? ", " : "") << c.not_covered[i];
            std::cout << "\n";
        }
        exit_code = all_sound ? 0 : 1;
    });
}

}  // namespace kcs::cli
