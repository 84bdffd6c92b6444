// kcs certify: runs every instance of a plan against an adapter and writes
// the report (reports/include/kcs/reports/report.hpp) to DIR/report.json.
// The report is rewritten while the run goes on, so an interrupted run or
// a crash of kcs itself still leaves one, marked incomplete.
#include <atomic>
#include <csignal>
#include <iomanip>
#include <iostream>
#include <memory>
#include <thread>

#include "certify_summary.hpp"
#include "commands.hpp"
#include "expected_failures.hpp"
#include "kcs_root.hpp"
#include "live_display.hpp"
#include "mustpass.hpp"
#include "kcs/harness/progress.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/harness/shard.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/reports/environment.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report_file.hpp"
#include "probes.hpp"
#include "support.hpp"
#include "run_recorder.hpp"
#include "run_setup.hpp"
#include "signed_output.hpp"

namespace kcs::cli {

namespace {

namespace fs = std::filesystem;
using Clock = RunRecorder::Clock;

// The signal that asked the run to stop (0: none). The one piece of global
// state: a signal handler can reach nothing else. Checked between instances.
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only touch lock-free atomics");

void request_stop(int signal) { stop_signal.store(signal); }

// SA_RESETHAND: a second Ctrl-C ends kcs at once; the last partial report
// stays on disk, marked in progress.
void install_stop_handlers() {
    struct sigaction action {};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

struct CertifyOptions {
    RunChoice run;
    AdapterChoice adapter;
    std::string out;
    std::string key;     // secret key: sign report.json into report.dsse.json
    std::string signer;  // public key: name the signer, for kcs sign elsewhere
    std::uint64_t seed = 1;
    int jobs = 1;
    std::string shard;  // "I/N"; empty: the environment's, else the whole plan
    std::string costs;  // a report whose wall times cut the plan; empty: the built-in table
    std::string baseline, flakes;  // what a CI job expects not to pass (expected_failures.hpp)
};

// "reports/out/NAME-PROFILE-DEPTH-20240501T120000Z[-shard-I-of-N]".
fs::path default_out_dir(const std::string& adapter, const RunSetup& setup, std::chrono::system_clock::time_point t,
                         const std::optional<reports::ShardRecord>& shard) {
    std::string stamp = reports::utc_timestamp(t);  // 2024-05-01T12:00:00.123Z
    stamp = stamp.substr(0, 19) + "Z";
    std::erase(stamp, '-');
    std::erase(stamp, ':');
    const std::string part =
        shard ? "-shard-" + std::to_string(shard->index) + "-of-" + std::to_string(shard->count) : "";
    return fs::path("reports") / "out" /
           (adapter_name(adapter) + "-" + setup.request.profile->id + "-" + setup.request.depth->id + "-" + stamp +
            part);
}

// The shard asked for: --shard, else the batch system's environment; none
// (the whole plan) for neither, or for a count of 1.
std::optional<harness::ShardRequest> requested_shard(const std::string& option) {
    auto request = option.empty() ? harness::shard_from_environment()
                                  : harness::ShardRequest{harness::parse_shard(option), "--shard"};
    if (request && request->shard.count == 1) return std::nullopt;
    return request;
}

// The instances this run covers, as the report's plan: all of them, or the
// shard's part, which `record` then describes.
std::vector<harness::Instance> covered_instances(std::vector<harness::Instance> plan,
                                                 const std::optional<harness::ShardRequest>& request,
                                                 const harness::CostModel& costs,
                                                 std::optional<reports::ShardRecord>& record) {
    if (!request) return plan;
    const auto members =
        harness::assign_shards(plan, costs, request->shard.count, suites::splits_sweep)[request->shard.index];
    record = reports::ShardRecord{request->shard.index, request->shard.count, plan.size(), costs.source(),
                                  costs.digest(), 0.0};
    std::vector<harness::Instance> part;
    for (const harness::ShardMember& m : members) {
        record->expected_s += harness::expected_seconds(m, plan, costs);
        part.push_back(plan[m.instance]);
        if (m.parts > 1) part.back().sweep = harness::Instance::SweepSplit{m.part, m.parts, {}};
    }
    return part;
}

// Runs the applicable instances on `adapters`, one thread per adapter,
// each taking the next instance not yet taken, until all are done or a
// stop is requested. An exception costs its instance (ERROR), not the run.
// `order`: the plan indices, most expensive first.
void run_instances(RunRecorder& recorder, const RunSetup& setup, const std::vector<std::size_t>& order,
                   std::vector<std::unique_ptr<host::IsolatedAdapter>>& adapters, const harness::CostModel& costs) {
    const auto& run = recorder.description();
    const auto& plan = recorder.plan();
    double expected_s = 0;
    for (const auto& instance : plan) expected_s += harness::expected_seconds(instance, costs);
    LiveDisplay display(std::cout, LiveDisplay::for_stdout(plan.size(), adapters.size(), expected_s));
    std::atomic<std::size_t> next{0};
    auto work = [&](host::IsolatedAdapter& adapter, std::size_t worker) {
        const harness::ProgressScope sweeps(&display.sink(worker));
        for (std::size_t k = next++; k < order.size() && stop_signal.load() == 0; k = next++) {
            const std::size_t i = order[k];
            const harness::Instance& instance = plan[i];
            display.begin(worker, instance.id, harness::expected_seconds(instance, costs));
            harness::InstanceResult result;
            try {
                const auto probe = suites::find_probe(instance.contract->id, instance.op->id);
                result = harness::run_instance(instance, probe, setup.catalog, run.claims, adapter, run.base_seed,
                                               run.seeds);
            } catch (const std::exception& e) {
                result = {&instance, harness::Verdict::error, {}};
                harness::CaseRecord c;
                c.seed = run.base_seed;
                c.result.message = std::string("harness failed: ") + e.what();
                result.cases.push_back(std::move(c));
            }
            display.end(worker, result);
            recorder.record(i, std::move(result));
        }
    };
    recorder.cases_begin();
    std::vector<std::thread> workers;
    for (std::size_t j = 1; j < adapters.size(); ++j)
        workers.emplace_back([&work, &adapter = *adapters[j], j] {
            work(adapter, j);
            ref::release_thread_caches();  // the probes' oracles may take the MPFR path
        });
    work(*adapters[0], 0);
    for (auto& w : workers) w.join();
    recorder.cases_end();
    display.finish();
}

}  // namespace

void add_certify_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<CertifyOptions>();
    auto* certify =
        app.add_subcommand("certify", "Run every instance of a profile against an adapter and write the report");
    certify
        ->add_option("--adapter", o->run.adapter, "The adapter: a name (e.g. reference-cpu) or a path to its library")
        ->required();
    certify->add_option("--option,-o", o->adapter.options, "An adapter option key=value (repeatable)");
    certify->add_option("--claims", o->run.claims,
                        "The adapter's claims file (default: vendors/NAME/claims.yaml for a built-in adapter, "
                        "else every claim at its catalog default)");
    certify->add_option("--profile", o->run.plan.profile, "The profile judged: core or strict")->capture_default_str();
    certify->add_option("--depth", o->run.plan.depth, "smoke, quick or full (only full is certifiable)")
        ->capture_default_str();
    certify->add_option("--op", o->run.plan.operators, "Only this operator (repeatable; default: every operator)");
    certify->add_option("--include", o->run.plan.include,
                    "Only instances whose id matches this glob pattern (repeatable; * ? [...], e.g. 'v1/C-ACC-*')");
    certify->add_option("--exclude", o->run.plan.exclude, "No instance whose id matches this glob pattern (repeatable)");
    certify->add_option("--spec,--spec-version", o->run.spec_dir,
                       "The catalog: a folder, or a version this kcs carries (1.1.0, or a release under "
                       "spec/releases/ such as 1.0.0); default: the newest carried catalog");
    certify->add_option("--out", o->out, "Folder for report.json (default: reports/out/ADAPTER-PROFILE-DEPTH-UTCTIME)");
    certify->add_option("--key", o->key,
                        "Sign the report with this secret key (kcs keygen): writes report.dsse.json beside report.json");
    certify->add_option("--signer", o->signer,
                        "Name this public key as the report's signer without signing here; sign report.json later "
                        "with kcs sign --key on the machine that holds the secret key")
        ->excludes(certify->get_option("--key"));
    certify->add_option("--seed", o->seed, "Base seed: the cases of an instance use seeds B, B+1, ...")
        ->capture_default_str();
    certify->add_option("--timeout", o->adapter.timeout_s, "Seconds one adapter call may take before it counts as hung")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    certify
        ->add_option("--jobs,-j", o->jobs,
                     "Instances run at once, each on its own adapter worker (the adapter then runs N times "
                     "side by side: use 1 for a device that cannot be shared)")
        ->check(CLI::Range(1, 256))
        ->capture_default_str();
    certify->add_option("--shard", o->shard,
                        "Run only shard I of N (I counts from 0), a fixed part of the plan cut so that the N parts "
                        "take about the same time; kcs merge joins the N reports. Without it, "
                        "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS name "
                        "the shard when set; 0/1 runs the whole plan whatever the environment says");
    certify
        ->add_option("--baseline", o->baseline,
                     "Expected failures, one instance id per line (optionally ,VERDICT): exit 0 when every "
                     "failure is listed and every listed instance still fails")
        ->check(CLI::ExistingFile);
    certify
        ->add_option("--flakes", o->flakes,
                     "Glob patterns over instance ids, one per line: their failures are flakes and do not fail the run")
        ->check(CLI::ExistingFile);
    certify->add_option("--costs", o->costs,
                        "A report.json of an earlier run whose instance times cut the shards (default: the table "
                        "kcs carries for the depth); every shard of a run must be given the same");
    certify->footer(
        "Instances without a probe yet are ERROR, which leaves the profile INCOMPLETE; --op narrows the run. "
        "Ctrl-C (SIGINT) or SIGTERM stops after the instance in progress and writes the report marked incomplete; "
        "a second one ends kcs at once, leaving the last partial report. Without --key the report is unsigned "
        "(a development run, never a certificate).\n"
        "Exit 0 when the profile is CONFORMANT, 1 when it is NON-CONFORMANT or INCOMPLETE (or the run was "
        "interrupted), 2 on a usage or input error. With --baseline or --flakes (a CI job's expected failures): "
        "exit 0 when every failing instance is expected and no listed one passed, else 1; the report records "
        "every verdict as it was.");
    certify->callback([&exit_code, o] {
        const auto command_start = Clock::now();
        // Keys first: a run that cannot be signed as asked should not start.
        std::optional<reports::SecretKey> key;
        std::optional<reports::Signer> signer;
        if (!o->key.empty()) {
            key = reports::read_secret_key(o->key);  // KeyFileError: exit 2 in main
            signer = signer_of(key->public_key);
        } else if (!o->signer.empty()) {
            signer = signer_of(reports::read_public_key(o->signer));
        }
        ExpectedFailures expected;  // ExpectationFileError: exit 2 in main, before any worker starts
        read_baseline(o->baseline, expected);
        read_flakes(o->flakes, expected);
        const auto shard = requested_shard(o->shard);  // std::invalid_argument: exit 2 in main
        install_stop_handlers();
        const auto setup = prepare_run(o->run);
        if (!setup) {
            exit_code = 2;
            return;
        }
        // std::runtime_error for an unusable --costs report: exit 2 in main, before any worker starts.
        const auto costs = o->costs.empty() ? harness::CostModel::built_in(setup->request.depth->id)
                                            : harness::CostModel::from_report(o->costs);
        const auto library = host::resolve_adapter(o->run.adapter);  // AdapterError: exit 2 in main
        std::vector<std::unique_ptr<host::IsolatedAdapter>> adapters;
        for (int j = 0; j < o->jobs; ++j)
            adapters.push_back(std::make_unique<host::IsolatedAdapter>(library, isolation_options(o->adapter)));

        reports::RunDescription run;
        run.started = std::chrono::system_clock::now();
        run.catalog = &setup->catalog;
        run.protocols = setup->protocols.get();
        run.profile = setup->request.profile;
        run.depth = setup->request.depth;
        run.claims = setup->request.claims;
        run.operators = setup->request.operators;
        run.include = setup->request.include;
        run.exclude = setup->request.exclude;
        run.adapter = {o->run.adapter, fs::absolute(library).lexically_normal(), o->adapter.options, std::nullopt, {}, {}};
        if (auto info = adapters[0]->info(); info.ok())
            run.adapter.info = info.value;
        else
            run.adapter.info_error = info.result.describe();
        // A claim about operators the adapter declines as a whole is not needed (SPEC.md section 8).
        run.adapter.declined_operators = suites::declined_operators(setup->catalog, *adapters[0]);
        harness::scope_claims(run.claims, setup->catalog, run.adapter.declined_operators);
        run.subjects = reports::make_subjects(library, run.claims, setup->catalog, reports::current_executable());
        for (auto& subject : run.subjects) subject.path = rooted(subject.path);  // no local folder in a report
        run.kcs_version = KCS_VERSION;
        run.command_line = reports::current_command_line();
        run.working_directory = fs::current_path().string();
        run.environment = reports::capture_environment();
        run.base_seed = o->seed;
        run.seeds = setup->request.depth->seeds;
        run.call_timeout = std::chrono::seconds(o->adapter.timeout_s);
        run.jobs = o->jobs;
        run.repro = repro_command(o->run, *setup, o->adapter);
        run.signer = signer;

        auto plan = harness::make_plan(setup->request);
        run.plan_digest = harness::plan_digest(plan);
        // A certificate needs the release's must-pass list planned whole.
        if (setup->request.depth->certifiable && !shard) {
            run.mustpass = mustpass_record(setup->catalog, *setup->request.profile, plan);
            const auto& missing = (*run.mustpass)["missing"];
            std::cout << "must-pass " << (*run.mustpass)["list"].get<std::string>() << ": "
                      << (*run.mustpass)["required"].get<std::size_t>() << " instances, "
                      << (missing.empty() ? std::string("all planned")
                                          : std::to_string(missing.size()) + " not planned (e.g. " +
                                                missing[0].get<std::string>() + ")")
                      << "\n";
        }
        reports::RunResults results;
        results.plan = covered_instances(std::move(plan), shard, costs, run.shard);
        results.results.resize(results.plan.size());
        const auto order = harness::longest_first(results.plan, costs);

        const fs::path out =
            o->out.empty() ? default_out_dir(o->run.adapter, *setup, run.started, run.shard) : fs::path(o->out);
        const auto shard_record = run.shard;
        const fs::path file = out / "report.json";
        RunRecorder recorder(std::move(run), std::move(results), file, command_start);
        recorder.start();
        std::cout << "certifying " << o->run.adapter << ": " << recorder.plan().size() << " instances, profile "
                  << setup->request.profile->id << ", depth " << setup->request.depth->id << "; report "
                  << file.string() << std::endl;
        if (shard_record)
            std::cout << "shard " << shard_record->index << " of " << shard_record->count << " (" << shard->source
                      << "): " << recorder.plan().size() << " of the plan's " << shard_record->plan_instances
                      << " instances, expected " << std::fixed << std::setprecision(1) << shard_record->expected_s
                      << " s (cost model: " << costs.source() << ")" << std::defaultfloat << std::endl;
        run_instances(recorder, *setup, order, adapters, costs);

        const int signal = stop_signal.load();
        const auto report = recorder.finish(signal ? reports::RunState::interrupted : reports::RunState::finished);
        if (signal)
            std::cout << "\ninterrupted by signal " << signal << ": the report holds the instances run so far\n";
        print_certify_summary(report, file);
        if (key) write_envelope(out, report, *key);
        exit_code = !signal && report["predicate"]["summary"]["profile"]["verdict"] == "CONFORMANT" ? 0 : 1;
        if (!expected.empty()) {
            const CiComparison comparison = compare_with_expected(report, expected);
            std::cout << "\n" << describe(comparison);
            exit_code = !signal && comparison.passes() ? 0 : 1;
        }
    });
}

}  // namespace kcs::cli
