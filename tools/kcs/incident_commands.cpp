// kcs incident list|show|replay: the documented field failures the catalog
// records (spec/v1/incidents), the class and signature that catch each,
// and a replay that runs the matching instances against the calibration
// violator reproducing the incident, beside reference-cpu, to show the
// signature being caught.
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "kcs/harness/runner.hpp"
#include "kcs/host/adapter_search.hpp"
#include "probes.hpp"
#include "run_setup.hpp"

namespace kcs::cli {

namespace {

struct IncidentOptions {
    RunChoice choice;
    std::string id;
    std::uint64_t seed = 1;
    bool json = false;
};

// The catalog, loaded as kcs plan loads it; nullptr after printing why.
std::unique_ptr<RunSetup> load(IncidentOptions& o) {
    o.choice.adapter = "calibration";  // the violators' claims
    return prepare_run(o.choice);
}

const spec::Incident* find_or_explain(const spec::Catalog& catalog, const std::string& id) {
    if (const auto* incident = catalog.find_incident(id)) return incident;
    std::cerr << "kcs: error: no incident '" << id << "' in the catalog; known:";
    for (const auto& i : catalog.incidents) std::cerr << " " << i.id;
    std::cerr << "\n";
    return nullptr;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
    return out;
}

nlohmann::json incident_json(const spec::Catalog& catalog, const spec::Incident& incident) {
    const spec::ContractClass* cls = catalog.find_class(incident.class_id);
    const spec::Signature* signature = cls ? cls->signature(incident.signature) : nullptr;
    return {{"id", incident.id},
            {"title", incident.title},
            {"summary", incident.summary},
            {"class", incident.class_id},
            {"class_title", cls ? cls->title : ""},
            {"signature", incident.signature},
            {"signature_text", signature ? signature->text : ""},
            {"operators", incident.operators},
            {"violator", incident.violator},
            {"references", incident.references}};
}

void show(const spec::Catalog& catalog, const spec::Incident& incident) {
    const spec::ContractClass* cls = catalog.find_class(incident.class_id);
    const spec::Signature* signature = cls ? cls->signature(incident.signature) : nullptr;
    std::cout << incident.id << ": " << incident.title << "\n\n"
              << incident.summary << "\n\n"
              << "caught by  " << incident.class_id << (cls ? " " + cls->title : "") << "\n"
              << "signature  " << incident.signature << (signature ? ": " + signature->text : "") << "\n"
              << "operators  " << joined(incident.operators) << "\n"
              << "reproduced by the calibration violator " << incident.violator
              << " (kcs incident replay " << incident.id << ")\n"
              << "references\n";
    for (const auto& r : incident.references) std::cout << "  - " << r << "\n";
}

// One instance run on one adapter: its verdict, violated class and signature.
std::string outcome(const harness::InstanceResult& r) {
    std::string text(harness::to_string(r.verdict));
    for (const auto& c : r.cases)
        if (c.result.verdict == r.verdict && !c.result.signature.empty())
            return text + " " + c.result.violated_class + " " + c.result.signature;
    return text;
}

bool catches(const harness::InstanceResult& r, const spec::Incident& incident) {
    for (const auto& c : r.cases)
        if (c.result.verdict == harness::Verdict::fail && c.result.violated_class == incident.class_id &&
            c.result.signature == incident.signature)
            return true;
    return false;
}

// Runs every applicable instance of the incident's class and operators on
// the violator and on reference-cpu. Exit 0 when the violator is caught
// with the incident's signature and reference-cpu passes, 1 otherwise.
int replay(const spec::Catalog& catalog, const harness::PlanRequest& request, const spec::Incident& incident,
           std::uint64_t seed) {
    const auto plan = harness::make_plan(request);
    host::IsolationOptions violating;
    violating.adapter_options = {"violation=" + incident.violator};
    host::IsolatedAdapter violator(host::resolve_adapter("calibration"), violating);
    host::IsolatedAdapter conforming(host::resolve_adapter("reference-cpu"));

    std::cout << "replaying " << incident.id << ": " << incident.class_id << " on " << joined(incident.operators)
              << ", calibration violation=" << incident.violator << " against reference-cpu, depth "
              << request.depth->id << "\n\n";
    std::size_t run = 0, caught = 0, no_probe = 0, reference_failed = 0;
    for (const auto& instance : plan) {
        if (instance.contract->id != incident.class_id || !instance.applicable) continue;
        const auto probe = suites::find_probe(instance.contract->id, instance.op->id);
        if (!probe) {
            ++no_probe;
            std::cout << "  " << instance.id << "\n      no probe for this operator yet\n";
            continue;
        }
        ++run;
        const int seeds = request.depth->seeds;
        const auto bad = harness::run_instance(instance, probe, catalog, request.claims, violator, seed, seeds);
        const auto good = harness::run_instance(instance, probe, catalog, request.claims, conforming, seed, seeds);
        const bool hit = catches(bad, incident);
        caught += hit;
        reference_failed += good.verdict != harness::Verdict::pass;
        std::cout << "  " << instance.id << "\n      " << std::left << std::setw(24) << incident.violator
                  << outcome(bad) << (hit ? "   <- caught" : "") << "\n      " << std::setw(24) << "reference-cpu"
                  << outcome(good) << "\n";
    }
    std::cout << "\n";
    if (caught > 0 && reference_failed == 0) {
        std::cout << "CAUGHT  " << incident.id << ": " << caught << " of " << run << " instances FAIL "
                  << incident.class_id << " with " << incident.signature << "; reference-cpu passes every one\n";
        return 0;
    }
    std::cout << "NOT CAUGHT  " << incident.id << ": " << caught << " of " << run << " instances show "
              << incident.signature;
    if (reference_failed) std::cout << "; reference-cpu did not pass " << reference_failed;
    if (no_probe) std::cout << "; " << no_probe << " instances have no probe yet";
    std::cout << "\n";
    return 1;
}

}  // namespace

void add_incident_commands(CLI::App& app, int& exit_code) {
    auto* group = app.add_subcommand("incident", "Documented field failures and the contracts that catch them");
    group->require_subcommand(1);
    auto o = std::make_shared<IncidentOptions>();
    o->choice.plan.profile = "strict";  // every class applies
    o->choice.plan.depth = "smoke";

    auto* list = group->add_subcommand("list", "Every incident of the catalog, with its class and signature");
    list->add_option("--spec", o->choice.spec_dir, "Catalog folder (default: the newest carried catalog)");
    list->add_flag("--json", o->json, "A JSON array, one object per incident (as show --json)");
    list->callback([&exit_code, o] {
        const auto setup = load(*o);
        if (!setup) {
            exit_code = 2;
            return;
        }
        if (o->json) {
            nlohmann::json all = nlohmann::json::array();
            for (const auto& i : setup->catalog.incidents) all.push_back(incident_json(setup->catalog, i));
            std::cout << all.dump(2) << "\n";
            exit_code = 0;
            return;
        }
        for (const auto& i : setup->catalog.incidents)
            std::cout << std::left << std::setw(28) << i.id << std::setw(10) << i.class_id << std::setw(24) << i.signature
                      << i.title << "\n";
        exit_code = 0;
    });

    auto* show_cmd = group->add_subcommand("show", "One incident: what happened, the class and signature that catch it");
    show_cmd->add_option("ID", o->id, "The incident id (kcs incident list)")->required();
    show_cmd->add_option("--spec", o->choice.spec_dir, "Catalog folder (default: the newest carried catalog)");
    show_cmd->add_flag("--json", o->json, "One JSON object: id, title, summary, class, signature, operators, violator, "
                                          "references");
    show_cmd->callback([&exit_code, o] {
        const auto setup = load(*o);
        const spec::Incident* incident = setup ? find_or_explain(setup->catalog, o->id) : nullptr;
        if (!incident) {
            exit_code = 2;
            return;
        }
        if (o->json) std::cout << incident_json(setup->catalog, *incident).dump(2) << "\n";
        else show(setup->catalog, *incident);
        exit_code = 0;
    });

    auto* replay_cmd =
        group->add_subcommand("replay", "Run the incident's instances against the violator that reproduces it");
    replay_cmd->add_option("ID", o->id, "The incident id (kcs incident list)")->required();
    replay_cmd->add_option("--depth", o->choice.plan.depth, "smoke or quick")
        ->check(CLI::IsMember({"smoke", "quick"}))
        ->capture_default_str();
    replay_cmd->add_option("--seed", o->seed, "Base seed")->capture_default_str();
    replay_cmd->add_option("--spec", o->choice.spec_dir, "Catalog folder (default: the newest carried catalog)");
    replay_cmd->footer(
        "Plans the incident's class on its operators (profile strict, the calibration adapter's claims), runs each "
        "instance against calibration --option violation=VIOLATOR and against reference-cpu, and shows the verdicts.\n"
        "Exit 0 when the violator FAILs the class with the incident's signature and reference-cpu passes, 1 when not "
        "(or an operator has no probe yet), 2 on a usage or input error.");
    replay_cmd->callback([&exit_code, o] {
        const auto setup = load(*o);
        const spec::Incident* incident = setup ? find_or_explain(setup->catalog, o->id) : nullptr;
        if (!incident) {
            exit_code = 2;
            return;
        }
        auto request = setup->request;  // points into setup->catalog, which outlives it here
        request.operators = incident->operators;
        exit_code = replay(setup->catalog, request, *incident, o->seed);
    });
}

}  // namespace kcs::cli
