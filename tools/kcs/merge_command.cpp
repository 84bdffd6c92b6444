// kcs merge: joins the reports of the N shards of one run (kcs certify
// --shard I/N, e.g. the tasks of a Slurm job array) into the report of the
// whole plan, signed when given a key (reports/include/kcs/reports/merge.hpp).
#include <chrono>
#include <iostream>
#include <memory>
#include <utility>

#include "certify_summary.hpp"
#include "commands.hpp"
#include "kcs/reports/environment.hpp"
#include "kcs/reports/merge.hpp"
#include "kcs/reports/report_file.hpp"
#include "probes.hpp"
#include "run_setup.hpp"
#include "signed_output.hpp"
#include "trusted_inputs.hpp"

namespace kcs::cli {

namespace {

namespace fs = std::filesystem;

struct MergeOptions {
    std::vector<std::string> shards;
    std::string out;
    std::string key;
    std::string spec_dir;
};

}  // namespace

void add_merge_command(CLI::App& app, int& exit_code) {
    auto o = std::make_shared<MergeOptions>();
    auto* merge = app.add_subcommand("merge", "Join the reports of a sharded run (certify --shard) into one report");
    merge->add_option("shards", o->shards, "Each shard's report.json, or the folder that holds it")->required();
    merge->add_option("--out", o->out, "Folder for the joined report.json")->required();
    merge->add_option("--key", o->key,
                      "Sign the joined report with this secret key (kcs keygen): writes report.dsse.json beside it");
    merge->add_option("--spec", o->spec_dir,
                      "Catalog folder the shards ran against (default: the carried catalog with their digest)");
    merge->footer(
        "The shards must be of one run (the same catalog, adapter, device, options, claims, profile, depth, "
        "operators, seeds, plan and cost model) and cover the plan exactly once; a missing, duplicated, "
        "unfinished or foreign shard is an error that names it, and nothing is written. A sweep the shards cut "
        "into parts is folded from the parts' tallies on the adapter library they ran (no chunk runs again).\n"
        "Exit 0 when the profile is CONFORMANT, 1 when it is NON-CONFORMANT or INCOMPLETE, 2 on a usage or "
        "input error.");
    merge->callback([&exit_code, o] {
        const auto start = std::chrono::steady_clock::now();
        std::optional<reports::SecretKey> key;
        if (!o->key.empty()) key = reports::read_secret_key(o->key);  // KeyFileError: exit 2 in main

        std::vector<reports::ShardReport> shards;
        for (const auto& s : o->shards) shards.push_back(reports::read_shard_report(s));  // MergeError: exit 2

        std::vector<std::unique_ptr<spec::Catalog>> given;
        if (!o->spec_dir.empty()) {
            auto loaded = spec::load_catalog(o->spec_dir);
            if (!loaded.ok())
                throw std::runtime_error("the catalog in " + o->spec_dir + " has problems; run 'kcs spec lint " +
                                         o->spec_dir + "'");
            given.push_back(std::make_unique<spec::Catalog>(std::move(loaded.catalog)));
        }
        const auto carried = load_trusted_inputs({});
        reports::MergeInputs inputs;
        inputs.catalog = [&](const std::string& digest) -> const spec::Catalog* {
            for (const auto* list : {&std::as_const(given), &carried.catalogs})
                for (const auto& c : *list)
                    if (spec::catalog_digest(*c) == digest) return c.get();
            return nullptr;
        };
        // A sweep the shards cut is folded by its probe, on the adapter the
        // shards ran (asked what it supports, as every case asks; no chunk runs).
        inputs.fold_sweep = [](const reports::SweepFold& fold) {
            if (!suites::splits_sweep(*fold.instance))
                throw reports::MergeError(fold.instance->id + " is not a sweep this kcs cuts in parts");
            AdapterChoice choice;
            choice.options = fold.adapter_options;
            host::IsolatedAdapter adapter(fold.adapter_library, isolation_options(choice));
            const harness::Instance& i = *fold.instance;
            return harness::run_instance(i, suites::find_probe(i.contract->id, i.op->id), *fold.catalog, fold.claims,
                                         adapter, fold.base_seed, fold.seeds);
        };
        if (key) inputs.signer = signer_of(key->public_key);
        inputs.command_line = reports::current_command_line();
        inputs.working_directory = fs::current_path().string();

        const auto report = reports::merge_shards(shards, inputs);
        const fs::path out(o->out), file = out / "report.json";
        reports::write_file_atomically(file, reports::report_text(report));
        const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "merged    " << shards.size() << " shards, " << report["predicate"]["instances"].size()
                  << " instances, in " << took << " s\n";
        print_certify_summary(report, file);
        if (key) write_envelope(out, report, *key);
        exit_code = report["predicate"]["summary"]["profile"]["verdict"] == "CONFORMANT" ? 0 : 1;
    });
}

}  // namespace kcs::cli
