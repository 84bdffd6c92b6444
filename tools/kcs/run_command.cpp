// kcs run: replays exactly one case (one instance, one seed), as the repro
// line of a report names it, and prints its verdict with the evidence the
// report holds for it.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/reference/number_text.hpp"
#include "kcs/reports/render.hpp"
#include "kcs/reports/report.hpp"
#include "probes.hpp"
#include "run_setup.hpp"
#include "yaml_reader.hpp"  // did_you_mean

namespace kcs::cli {

namespace {

// A replayed case shows its values exactly: a person compares them with
// the report's or copies them.
using ref::round_trip_text;

void print_case(const harness::Instance& instance, const harness::CaseRecord& record, const std::string& library) {
    const auto& r = record.result;
    const auto& e = r.evidence;
    std::cout << "case      " << instance.id << "  seed " << record.seed << "\n"
              << "measures  " << instance.measures() << "\n"
              << "adapter   " << library << "\n"
              << "verdict   " << harness::to_string(r.verdict);
    if (!r.violated_class.empty()) std::cout << "  " << r.violated_class;
    if (!r.signature.empty()) std::cout << " / " << r.signature;
    std::cout << "\n";
    if (!r.message.empty()) std::cout << "message   " << r.message << "\n";
    if (!e.figure_name.empty())
        std::cout << "evidence  "
                  << harness::figure_statement(e.figure_name, e.figure, round_trip_text(e.figure),
                                               round_trip_text(e.bound))
                  << "\n";
    if (e.worst) {
        const auto& w = *e.worst;
        std::cout << "worst     element " << w.index << ": expected " << round_trip_text(w.expected) << " ("
                  << reports::hex_float(w.expected) << "), got " << round_trip_text(w.got)
                  << (w.got_bits.empty() ? "" : " (bits " + w.got_bits + ")") << ", "
                  << (reports::unmeasured_error_text(w.error, w.bound).empty()
                          ? "error " + round_trip_text(w.error) + ", bound " + round_trip_text(w.bound)
                          : reports::unmeasured_error_text(w.error, w.bound))
                  << "\n";
        // The inputs the element depends on, a few to a line.
        for (std::size_t i = 0; i < w.inputs.size(); ++i)
            std::cout << (i % 6 == 0 ? (i == 0 ? "inputs    " : "\n          ") : "  ") << w.inputs[i];
        if (!w.inputs.empty()) std::cout << "\n";
    }
    if (!e.details.empty()) std::cout << "details   " << e.details.dump() << "\n";
    std::cout << "time      " << std::fixed << std::setprecision(3)
              << std::chrono::duration<double>(record.wall).count() << " s\n";
}

bool failed(harness::Verdict v) {
    using harness::Verdict;
    return v == Verdict::fail || v == Verdict::crash || v == Verdict::timeout || v == Verdict::error;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
    struct Options {
        RunChoice run;
        AdapterChoice adapter;
        std::string case_id;
        std::uint64_t seed = 0;
        bool json = false;
    };
    auto o = std::make_shared<Options>();

    auto* run = app.add_subcommand("run", "Replay one case of a contract instance and print its verdict and evidence");
    run->add_option("--adapter", o->run.adapter, "The adapter: a name (e.g. reference-cpu) or a path to its library")
        ->required();
    run->add_option("--option,-o", o->adapter.options, "An adapter option key=value (repeatable)");
    run->add_option("--claims", o->run.claims,
                    "The adapter's claims file (default: vendors/NAME/claims.yaml for a built-in adapter, "
                    "else every claim at its catalog default)");
    run->add_option("--profile", o->run.plan.profile, "The profile the instance is planned under")
        ->capture_default_str();
    run->add_option("--depth", o->run.plan.depth, "The depth that fixes its parameters: smoke, quick or full")
        ->capture_default_str();
    run->add_option("--spec,--spec-version", o->run.spec_dir,
                       "The catalog: a folder, or a version this kcs carries (1.1.0, or a release under "
                       "spec/releases/ such as 1.0.0); default: the newest carried catalog");
    run->add_option("--case,--instance", o->case_id, "The instance id, e.g. v1/C-PRC-01/matmul/f32xf32-f32/k-sweep")
        ->required();
    run->add_option("--seed", o->seed, "The case's seed")->required();
    run->add_option("--timeout", o->adapter.timeout_s, "Seconds one adapter call may take before it counts as hung")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    run->add_flag("--json", o->json, "Print the case as the report holds it (JSON)");
    run->footer(
        "Exit 0 on PASS (or UNSUPPORTED, NOT_APPLICABLE: nothing failed), 1 on FAIL, CRASH, TIMEOUT or "
        "ERROR, 2 on a usage or input error (unknown case, unusable adapter, bad claims file).");
    run->callback([&exit_code, o] {
        const auto setup = prepare_run(o->run);
        if (!setup) {
            exit_code = 2;
            return;
        }
        const auto plan = harness::make_plan(setup->request);
        const auto found = std::find_if(plan.begin(), plan.end(), [&](const auto& i) { return i.id == o->case_id; });
        if (found == plan.end()) {
            std::vector<std::string> ids;
            for (const auto& i : plan) ids.push_back(i.id);
            const std::string hint = spec::detail::did_you_mean(o->case_id, ids);
            std::cerr << "--case: error: no instance '" << o->case_id << "' in the plan of profile "
                      << setup->request.profile->id << " (run 'kcs plan --adapter " << o->run.adapter << " --profile "
                      << setup->request.profile->id << "' to list them)\n";
            if (!hint.empty()) std::cerr << "  hint: " << hint << "\n";
            exit_code = 2;
            return;
        }
        const harness::Instance& instance = *found;

        const auto library = host::resolve_adapter(o->run.adapter);  // AdapterError: exit 2 in main
        host::IsolatedAdapter adapter(library, isolation_options(o->adapter));
        const auto probe = suites::find_probe(instance.contract->id, instance.op->id);

        harness::CaseRecord record;
        record.seed = o->seed;
        const auto start = std::chrono::steady_clock::now();
        record.result = harness::run_case(instance, probe, setup->catalog, setup->request.claims, adapter, o->seed);
        record.wall = std::chrono::steady_clock::now() - start;

        const auto repro = repro_command(o->run, *setup, o->adapter).line(instance.id, o->seed);
        if (o->json) {
            auto json = reports::case_json(record, repro);
            json["instance"] = instance.id;
            std::cout << json.dump(2) << "\n";
        } else {
            print_case(instance, record, library.string());
        }
        exit_code = failed(record.result.verdict) ? 1 : 0;
    });
}

}  // namespace kcs::cli
