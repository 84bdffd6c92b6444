#include "kcs/suites/calibration.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "kcs/harness/primary_cause.hpp"

namespace kcs::suites {

namespace {

std::string observed_of(const harness::InstanceResult& result) {
    std::string text(harness::to_string(result.verdict));
    for (const auto& c : result.cases) {
        if (c.result.verdict != result.verdict) continue;
        if (!c.result.violated_class.empty()) text += " " + c.result.violated_class;
        if (!c.result.signature.empty()) text += " " + c.result.signature;
        if (result.verdict != harness::Verdict::pass && !c.result.message.empty()) text += " (" + c.result.message + ")";
        break;
    }
    return text;
}

bool failed_as(const harness::InstanceResult& result, const std::string& class_id, const std::string& signature) {
    if (result.verdict != harness::Verdict::fail) return false;
    return std::any_of(result.cases.begin(), result.cases.end(), [&](const harness::CaseRecord& c) {
        return c.result.verdict == harness::Verdict::fail && c.result.violated_class == class_id &&
               c.result.signature == signature;
    });
}

// One isolated adapter per implementation, opened on first use and kept.
class Adapters {
public:
    explicit Adapters(const CalibrationRequest& r) : request_(r) {}

    // "" for the conforming adapter; "NAME" for violation=NAME, or an
    // option "key=value" of the calibration adapter (conforming=NAME).
    host::IsolatedAdapter& get(const std::string& behaviour) {
        auto& slot = open_[behaviour];
        if (!slot) {
            host::IsolationOptions options;
            options.call_timeout = request_.call_timeout;
            if (!behaviour.empty())
                options.adapter_options.push_back(behaviour.find('=') == std::string::npos ? "violation=" + behaviour
                                                                                           : behaviour);
            slot = std::make_unique<host::IsolatedAdapter>(
                behaviour.empty() ? request_.conforming_adapter : request_.calibration_adapter, options);
        }
        return *slot;
    }

private:
    const CalibrationRequest& request_;
    std::map<std::string, std::unique_ptr<host::IsolatedAdapter>> open_;
};

// What a conforming implementation (reference-cpu, a claim conformer) must
// get: a PASS, or INCONCLUSIVE, which also saw no violation but where the
// depth lacks the class's power (C-ORD-03 on the reductions below full).
bool no_violation_seen(harness::Verdict v) {
    return v == harness::Verdict::pass || v == harness::Verdict::inconclusive;
}

// State 4: a claim conformer passes, or is not applicable, wherever its
// claims and profile plan an instance; each instance is a row of its class.
void calibrate_conformer(const CalibrationRequest& request, const ClaimConformer& c, Adapters& adapters,
                         std::map<std::string, ClassCalibration*>& by_class) {
    for (const auto& instance : c.plan) {
        const auto target = by_class.find(instance.contract->id);
        if (target == by_class.end()) continue;  // --class left it out
        if (request.only_operator && *request.only_operator != instance.op->id) continue;
        const harness::Probe probe = request.find_probe(instance.contract->id, instance.op->id);
        const auto result = harness::run_instance(instance, probe, *request.catalog, c.claims,
                                                  adapters.get("conforming=" + c.name), request.seed, request.seeds);
        CalibrationRow row{instance.id, "conforming=" + c.name, "PASS (or INCONCLUSIVE) or NOT_APPLICABLE",
                           observed_of(result), std::nullopt,
                           no_violation_seen(result.verdict) || result.verdict == harness::Verdict::not_applicable,
                           "", true};
        if (!row.sound) row.reason = "a claim conformer does not pass under the claims that allow it";
        target->second->rows.push_back(row);
        if (request.on_row) request.on_row(row);
    }
}

// A violator's run on an instance of its own class.
struct OwnRun {
    const harness::Instance* instance;
    harness::InstanceResult result;
};

std::string configuration_key(const harness::Instance& i) {
    return i.op->id + (i.function ? "." + *i.function : "") + " " + i.config.id();
}

// Echoes: the violator over the other classes' instances on the operator
// configurations it was run on in its own class, and on their full-width
// siblings (same inputs, f32 output); each FAIL there is a row: sound when
// the primary-cause rule makes it a consequence of a FAIL of the violator's
// own class, or when the class lists it as genuine (also_fails).
void calibrate_echoes(const CalibrationRequest& request, const std::string& implementation,
                      const std::vector<OwnRun>& own, Adapters& adapters, ClassCalibration& calibration) {
    const std::string& own_class = own.front().instance->contract->id;
    // Every probe runs under the integrity protocol, which fails the breach
    // class whatever the probe measured: a breach violator's runs elsewhere
    // can only show its own class again.
    if (own_class == harness::kBreachClass) return;
    const spec::ContractClass* k = request.catalog->find_class(own_class);
    std::map<std::string, std::string> genuine;  // class -> why
    for (const auto& v : k->calibration.violating)
        if (v.implementation == implementation)
            for (const auto& a : v.also_fails) genuine[a.class_id] = a.why;
    std::set<std::string> keys;
    for (const auto& r : own) {
        keys.insert(configuration_key(*r.instance));
        harness::Instance wide = *r.instance;
        wide.config.output = wide.config.accumulate.value_or("f32");
        keys.insert(configuration_key(wide));
    }
    std::vector<harness::Instance> plan;
    std::vector<std::optional<harness::InstanceResult>> results;
    for (const auto& r : own) {
        plan.push_back(*r.instance);
        results.emplace_back(r.result);
    }
    for (const auto& instance : *request.plan) {
        if (instance.contract->id == own_class || !instance.applicable || !keys.contains(configuration_key(instance)))
            continue;
        const harness::Probe probe = request.find_probe(instance.contract->id, instance.op->id);
        if (!probe) continue;
        plan.push_back(instance);
        results.emplace_back(harness::run_instance(instance, probe, *request.catalog, *request.claims,
                                                   adapters.get(implementation), request.seed, request.seeds));
    }
    // The results point at `plan`'s own copies, as a run's do.
    for (std::size_t i = 0; i < plan.size(); ++i) results[i]->instance = &plan[i];
    const auto causes = harness::primary_causes(plan, results);
    for (std::size_t i = own.size(); i < plan.size(); ++i) {
        if (results[i]->verdict != harness::Verdict::fail) continue;
        const std::string other = plan[i].contract->id;
        CalibrationRow row{plan[i].id, implementation,
                           "a consequence of its " + own_class + " FAIL, or a genuine " + other + " FAIL (also_fails)",
                           observed_of(*results[i]), std::nullopt, false, ""};
        const bool own_violation = std::any_of(results[i]->cases.begin(), results[i]->cases.end(), [&](const auto& c) {
            return c.result.verdict == harness::Verdict::fail && c.result.violated_class == own_class;
        });
        if (own_violation) {
            row.sound = true;
            row.observed += "; its own " + own_class + " violation, found by the " + other + " probe";
        } else if (causes[i]) {
            row.sound = true;
            row.observed += "; consequence of " + causes[i]->cause;
        } else if (const auto why = genuine.find(other); why != genuine.end()) {
            row.sound = true;
            row.observed += "; genuine (also_fails): " + why->second;
        } else {
            row.reason = "a FAIL outside the violator's class that no FAIL of " + own_class +
                         " explains and the catalog does not list as genuine (an echo the primary-cause rule misses, "
                         "or also_fails is missing)";
        }
        calibration.rows.push_back(row);
        if (request.on_row) request.on_row(row);
    }
}

}  // namespace

std::string_view CalibrationRow::state() const {
    if (sound) return "SOUND";
    return conformer ? "FALSE_ALARM" : "UNDER_SPECIFIED";
}

std::vector<std::string> stated_operators(const spec::Catalog& catalog, const harness::Claims& conformer,
                                          const harness::Claims& conforming) {
    std::vector<std::string> operators;
    for (const auto& [id, value] : conformer.values) {
        const auto theirs = conforming.values.find(id);
        if (theirs != conforming.values.end() && theirs->second == value) continue;
        const spec::Claim* claim = catalog.find_claim(id);
        if (!claim || claim->operators.empty()) return {};
        for (const auto& op : claim->operators)
            if (std::find(operators.begin(), operators.end(), op) == operators.end()) operators.push_back(op);
    }
    return operators;
}

std::vector<std::string> claim_values_without_conformer(const spec::Catalog& catalog, const harness::Claims& conforming,
                                                        const std::vector<ClaimConformer>& conformers) {
    std::vector<std::string> missing;
    for (const auto& profile : catalog.profiles)
        for (const auto& claim : catalog.claims) {
            const auto restricted = profile.claims.find(claim.id);
            const auto& accepted = restricted == profile.claims.end() ? claim.values : restricted->second;
            for (const auto& value : accepted) {
                bool made = conforming.at(claim.id) == value;
                for (const auto& c : conformers) made = made || c.claims.at(claim.id) == value;
                if (!made) missing.push_back(claim.id + ": " + value + " (profile " + profile.id + ")");
            }
        }
    return missing;
}

bool ClassCalibration::sound() const {
    return !rows.empty() && std::all_of(rows.begin(), rows.end(), [](const CalibrationRow& r) { return r.sound; });
}

std::vector<ClassCalibration> calibrate(const CalibrationRequest& request) {
    const spec::Catalog& catalog = *request.catalog;
    Adapters adapters(request);
    std::map<std::string, harness::Verdict> conforming_done;  // instance id -> verdict already recorded
    std::map<std::string, std::vector<OwnRun>> caught_on;      // violator -> its runs in its own class
    std::vector<ClassCalibration> out;

    for (const auto& k : catalog.classes) {
        if (request.only_class && *request.only_class != k.id) continue;
        ClassCalibration calibration{k.id, {}, {}};
        const spec::FunctionalTest* test = catalog.find_functional_test(k.calibration.functional_test);
        for (const auto& violator : k.calibration.violating) {
            for (const auto& op : violator.operators) {
                if (request.only_operator && *request.only_operator != op) continue;
                const harness::Probe probe = request.find_probe(k.id, op);
                if (!probe) {
                    calibration.not_covered.push_back(violator.implementation + " on " + op);
                    continue;
                }
                for (const auto& instance : *request.plan) {
                    if (instance.contract->id != k.id || instance.op->id != op || !instance.applicable) continue;
                    if (!violator.configs.empty() &&
                        std::find(violator.configs.begin(), violator.configs.end(), instance.config.id()) ==
                            violator.configs.end())
                        continue;
                    if (!violator.functions.empty() &&
                        (!instance.function || std::find(violator.functions.begin(), violator.functions.end(),
                                                         *instance.function) == violator.functions.end()))
                        continue;
                    auto run = [&](const std::string& violation) {
                        return harness::run_instance(instance, probe, catalog, *request.claims, adapters.get(violation),
                                                     request.seed, request.seeds);
                    };
                    // State 1: the conforming implementation passes (once per instance).
                    if (!conforming_done.count(instance.id)) {
                        const auto result = run("");
                        conforming_done[instance.id] = result.verdict;
                        CalibrationRow row{instance.id, "reference-cpu", "PASS (or INCONCLUSIVE)", observed_of(result),
                                           std::nullopt, no_violation_seen(result.verdict), ""};
                        if (!row.sound) row.reason = "the conforming implementation does not pass";
                        calibration.rows.push_back(row);
                        if (request.on_row) request.on_row(row);
                    }
                    // State 2: the violator fails with this class and signature;
                    // state 3: it passes the basic functional test.
                    const auto result = run(violator.implementation);
                    CalibrationRow row{instance.id, violator.implementation, "FAIL " + k.id + " " + violator.signature,
                                       observed_of(result), std::nullopt, false, ""};
                    const bool caught = failed_as(result, k.id, violator.signature);
                    if (test) row.functional = run_functional_test(*test, instance, *request.claims,
                                                                   adapters.get(violator.implementation), request.seed);
                    const bool subtle = row.functional && row.functional->passed;
                    row.sound = caught && subtle;
                    if (!caught) row.reason = "the violator is not caught with the listed signature";
                    else if (!subtle)
                        row.reason = "the violator fails the basic functional test: " +
                                     (row.functional ? row.functional->message : std::string("no functional test"));
                    calibration.rows.push_back(row);
                    if (request.on_row) request.on_row(row);
                    caught_on[violator.implementation].push_back({&instance, result});
                }
            }
        }
        out.push_back(std::move(calibration));
    }
    for (auto& calibration : out)
        for (const auto& [implementation, own] : caught_on)
            if (!own.empty() && own.front().instance->contract->id == calibration.class_id)
                calibrate_echoes(request, implementation, own, adapters, calibration);
    if (request.conformers) {
        std::map<std::string, ClassCalibration*> by_class;
        for (auto& c : out) by_class[c.class_id] = &c;
        for (const auto& conformer : *request.conformers) calibrate_conformer(request, conformer, adapters, by_class);
    }
    return out;
}

}  // namespace kcs::suites
