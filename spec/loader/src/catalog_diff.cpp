#include "kcs/spec/catalog_diff.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "kcs/reference/number_text.hpp"
#include "kcs/spec/text_patterns.hpp"
#include "kcs/spec/tolerance_models.hpp"

namespace kcs::spec {

namespace {

using Step = VersionStep;

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items) out.append(out.empty() ? "" : ", ").append(item);
    return out;
}

// A value as written: strings bare, whole numbers without ".0" (3, not 3.0).
std::string text_of(const Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (v == static_cast<double>(static_cast<long long>(v)) && v > -1e15 && v < 1e15)
            return std::to_string(static_cast<long long>(v));
    }
    return value.dump();
}

// Collects the changes; each compare_* looks at one kind of entry.
class Differ {
public:
    explicit Differ(std::vector<CatalogChange>& out) : out_(out) {}

    void add(std::string subject, std::string change, std::string detail, Step needs) {
        out_.push_back({std::move(subject), std::move(change), std::move(detail), needs});
    }

    // Prose: any change is a patch.
    void text(const std::string& subject, const std::string& field, const std::string& a, const std::string& b) {
        if (a != b) add(subject, "text", field, Step::patch);
    }

    // A value whose every change needs `step` ("the generator's name").
    void value(const std::string& subject, const std::string& field, const std::string& a, const std::string& b,
               Step step) {
        if (a != b) add(subject, "changed", field + ": " + a + " -> " + b, step);
    }

    // A set of names: additions need `added`, removals `removed`.
    void names(const std::string& subject, const std::string& what, const std::vector<std::string>& a,
               const std::vector<std::string>& b, Step added, Step removed) {
        std::vector<std::string> more, fewer;
        const auto note = [](std::vector<std::string>& list, const std::string& x) {
            if (std::find(list.begin(), list.end(), x) == list.end()) list.push_back(x);
        };
        for (const auto& x : b)
            if (std::find(a.begin(), a.end(), x) == a.end()) note(more, x);
        for (const auto& x : a)
            if (std::find(b.begin(), b.end(), x) == b.end()) note(fewer, x);
        if (!more.empty()) add(subject, "added", what + ": " + joined(more), added);
        if (!fewer.empty()) add(subject, "removed", what + ": " + joined(fewer), removed);
    }

    // Entries keyed by `key`: an entry only in `b` is added (`added` step),
    // only in `a` removed (`removed`, major unless said); `both` compares the rest.
    template <typename T, typename Key, typename Both>
    void keyed(const std::string& kind, const std::vector<T>& a, const std::vector<T>& b, Key key, Step added,
               Both both, Step removed = Step::major, const std::string& removed_detail = "") {
        std::map<std::string, const T*> in_a;
        for (const T& item : a) in_a[key(item)] = &item;
        std::set<std::string> seen;
        for (const T& item : b) {
            const std::string id = key(item);
            seen.insert(id);
            const auto found = in_a.find(id);
            if (found == in_a.end())
                add(kind + " " + id, "added", "", added);
            else
                both(kind + " " + id, *found->second, item);
        }
        for (const auto& [id, item] : in_a)
            if (!seen.count(id)) add(kind + " " + id, "removed", removed_detail, removed);
    }

private:
    std::vector<CatalogChange>& out_;
};

// ---- tolerance parameters ----------------------------------------------------

void leaves(const Json& value, const std::string& path, std::map<std::string, Json>& out) {
    if (value.is_object()) {
        for (const auto& [key, item] : value.items()) leaves(item, path.empty() ? key : path + "." + key, out);
    } else {
        out[path] = value;
    }
}

const ModelParameter* parameter_of(const ToleranceModel* model, const std::string& path) {
    if (!model) return nullptr;
    const std::string name = path.substr(0, path.find('.'));
    for (const auto& p : model->parameters)
        if (p.name == name) return &p;
    return nullptr;
}

void compare_tolerance(Differ& d, const std::string& subject, const Tolerance& a, const Tolerance& b) {
    if (a.model != b.model) {
        d.add(subject, "changed", "tolerance model: " + a.model + " -> " + b.model, Step::major);
        return;
    }
    d.text(subject, "tolerance derivation", a.derivation, b.derivation);
    const ToleranceModel* model = find_tolerance_model(b.model);
    std::map<std::string, Json> old_leaves, new_leaves;
    leaves(a.params, "", old_leaves);
    leaves(b.params, "", new_leaves);
    using Role = ModelParameter::Role;
    for (const auto& [path, value] : new_leaves) {
        const ModelParameter* p = parameter_of(model, path);
        const bool evidence = p && (p->role == Role::evidence_larger_is_stronger ||
                                    p->role == Role::evidence_smaller_is_stronger);
        const auto found = old_leaves.find(path);
        if (found == old_leaves.end()) {
            // A new evidence requirement, or the bound of a new function or dtype.
            d.add(subject, "added", "tolerance " + path + " = " + text_of(value) +
                                        (evidence ? " (an evidence requirement)" : " (a bound where there was none)"),
                  Step::minor);
            continue;
        }
        const Json& old = found->second;
        if (old == value) continue;
        if (!old.is_number() || !value.is_number() || !p) {
            d.add(subject, "changed", "tolerance " + path + ": " + text_of(old) + " -> " + text_of(value), Step::major);
            continue;
        }
        const bool larger = value.get<double>() > old.get<double>();
        const std::string detail = "tolerance " + path + ": " + text_of(old) + " -> " + text_of(value);
        switch (p->role) {
            case Role::larger_is_looser: d.add(subject, larger ? "loosened" : "tightened", detail, Step::major); break;
            case Role::larger_is_tighter: d.add(subject, larger ? "tightened" : "loosened", detail, Step::major); break;
            case Role::evidence_larger_is_stronger:
                d.add(subject, larger ? "stronger" : "weaker", detail, larger ? Step::minor : Step::major);
                break;
            case Role::evidence_smaller_is_stronger:
                d.add(subject, larger ? "weaker" : "stronger", detail, larger ? Step::major : Step::minor);
                break;
        }
    }
    for (const auto& [path, value] : old_leaves)
        if (!new_leaves.count(path))
            d.add(subject, "removed", "tolerance " + path + " = " + text_of(value), Step::major);
}

// ---- classes -------------------------------------------------------------------

void compare_class(Differ& d, const std::string& s, const ContractClass& a, const ContractClass& b) {
    d.text(s, "title", a.title, b.title);
    d.value(s, "family", a.family, b.family, Step::major);
    d.value(s, "primitive", a.primitive, b.primitive, Step::major);
    d.names(s, "scope operators", a.scope_operators, b.scope_operators, Step::minor, Step::major);
    d.value(s, "scope claim", a.scope_claim.value_or("(none)"), b.scope_claim.value_or("(none)"), Step::major);
    d.text(s, "scope text", a.scope_text, b.scope_text);
    d.text(s, "precondition", a.precondition, b.precondition);
    d.text(s, "postcondition", a.postcondition, b.postcondition);
    d.text(s, "reference oracle", a.reference_oracle, b.reference_oracle);
    d.text(s, "measurement protocol", joined(a.measurement_protocol), joined(b.measurement_protocol));
    // The part of the precondition stated as data: the instances it excludes
    // stay in the plan as NOT_APPLICABLE. Stating what the precondition
    // already says is minor (SPEC.md section 10); review that it does.
    const auto requirement_key = [](const Requirement& r) { return r.condition + " on " + (r.operators.empty() ? "its scope" : joined(r.operators)); };
    d.keyed(s + ", requires", a.requirements, b.requirements, requirement_key, Step::minor,
            [&](const std::string& subject, const Requirement& x, const Requirement& y) {
                d.text(subject, "reason", x.reason, y.reason);
            });
    compare_tolerance(d, s, a.tolerance, b.tolerance);
    d.keyed(s + ", signature", a.violation_signature, b.violation_signature,
            [](const Signature& x) { return x.id; }, Step::minor,
            [&](const std::string& subject, const Signature& x, const Signature& y) {
                d.text(subject, "text", x.text, y.text);
                d.text(subject, "selected_when", x.selected_when, y.selected_when);
            });
    // Declarations only: the operators' values of a parameter decide the
    // step (a removed one's values are removed, or superseded, there).
    d.keyed(s + ", parameter", a.parameters, b.parameters, [](const Parameter& x) { return x.name; }, Step::minor,
            [&](const std::string& subject, const Parameter& x, const Parameter& y) {
                d.value(subject, "type", x.type, y.type, Step::major);
                d.text(subject, "description", x.description, y.description);
            },
            Step::patch, "the declaration; the operators' values decide");
    // Calibration is the suite's proof about itself, not a kernel's verdict:
    // a violator dropped weakens it (major), anything else is minor.
    d.names(s, "calibration conforming", a.calibration.conforming, b.calibration.conforming, Step::minor, Step::major);
    std::vector<std::string> old_violators, new_violators;
    for (const auto& v : a.calibration.violating) old_violators.push_back(v.implementation + " (" + v.signature + ")");
    for (const auto& v : b.calibration.violating) new_violators.push_back(v.implementation + " (" + v.signature + ")");
    d.names(s, "calibration violators", old_violators, new_violators, Step::minor, Step::major);
    const auto calibration_json = [](const Calibration& c) {
        Json out = Json::array();
        for (const auto& v : c.violating) {
            Json also = Json::array();
            for (const auto& f : v.also_fails) also.push_back(f.class_id);
            out.push_back({v.implementation, v.signature, v.operators, v.configs, v.functions, also});
        }
        return out;
    };
    if (old_violators == new_violators && calibration_json(a.calibration) != calibration_json(b.calibration))
        d.add(s, "changed", "where its violators are calibrated (operators, configs, functions, also_fails)", Step::minor);
    else if (old_violators != new_violators)
        d.add(s, "changed", "its calibration's violators and where they are calibrated", Step::minor);
    d.value(s, "calibration functional test", a.calibration.functional_test, b.calibration.functional_test, Step::major);
}

// ---- operators' protocol parameters --------------------------------------------------

// Whether every value `removed` had at every depth is dimension `d` of one
// of `successor`'s shapes at that depth: the new parameter measures all the
// old one did, and more (1.1.0's shapes superseding 1.0.0's K).
bool supersedes(const DepthValues& removed, const DepthValues& successor, std::size_t d) {
    for (const auto& [depth, old] : removed) {
        const auto found = successor.find(depth);
        if (found == successor.end() || !found->second.is_array()) return false;
        std::vector<Json> dimension;
        for (const Json& shape : found->second) {
            if (!shape.is_array() || shape.size() <= d) return false;
            dimension.push_back(shape[d]);
        }
        const std::vector<Json> values = old.is_array() ? std::vector<Json>(old.begin(), old.end()) : std::vector<Json>{old};
        for (const Json& v : values)
            if (std::find(dimension.begin(), dimension.end(), v) == dimension.end()) return false;
    }
    return true;
}

void compare_depth_values(Differ& d, const std::string& subject, const std::string& name, const DepthValues& a,
                          const DepthValues& b) {
    for (const auto& [depth, value] : b) {
        const auto found = a.find(depth);
        const std::string at = name + " at " + depth;
        if (found == a.end()) {
            d.add(subject, "added", at + " = " + value.dump(), Step::minor);
            continue;
        }
        const Json& old = found->second;
        if (old == value) continue;
        if (old.is_array() && value.is_array()) {
            std::vector<std::string> lost;
            for (const Json& v : old)
                if (std::find(value.begin(), value.end(), v) == value.end()) lost.push_back(v.dump());
            if (lost.empty())
                d.add(subject, "stronger", at + ": more values, " + old.dump() + " -> " + value.dump(), Step::minor);
            else
                d.add(subject, "weaker", at + ": no longer measures " + joined(lost), Step::major);
        } else if (old.is_number() && value.is_number()) {
            // A protocol's scalar is a count or a size: more measures more.
            const bool more = value.get<double>() > old.get<double>();
            d.add(subject, more ? "stronger" : "weaker", at + ": " + old.dump() + " -> " + value.dump(),
                  more ? Step::minor : Step::major);
        } else {
            d.add(subject, "changed", at + ": " + old.dump() + " -> " + value.dump(), Step::major);
        }
    }
    for (const auto& [depth, value] : a)
        if (!b.count(depth)) d.add(subject, "removed", name + " at " + depth, Step::major);
}

void compare_contract_parameters(Differ& d, const std::string& subject, const ContractParameters& a,
                                 const ContractParameters& b) {
    for (const auto& [name, values] : b) {
        const auto found = a.find(name);
        if (found == a.end())
            d.add(subject, "added", "parameter " + name, Step::minor);
        else
            compare_depth_values(d, subject, name, found->second, values);
    }
    for (const auto& [name, values] : a) {
        if (b.count(name)) continue;
        std::string successor;
        for (const auto& [new_name, new_values] : b) {
            if (a.count(new_name)) continue;
            for (std::size_t dim = 0; dim < 4 && successor.empty(); ++dim)
                if (supersedes(values, new_values, dim))
                    successor = new_name + " (every value of " + name + " at every depth is dimension " +
                                std::to_string(dim) + " of one of its shapes)";
        }
        if (successor.empty())
            d.add(subject, "removed", "parameter " + name, Step::major);
        else
            d.add(subject, "superseded", "parameter " + name + " by " + successor, Step::minor);
    }
}

void compare_operator(Differ& d, const std::string& s, const Operator& a, const Operator& b) {
    d.text(s, "title", a.title, b.title);
    d.text(s, "definition", a.definition, b.definition);
    for (const auto& [what, x, y] : {std::tuple{"input", &a.inputs, &b.inputs}, std::tuple{"output", &a.outputs, &b.outputs}})
        d.keyed(s + ", " + what, *x, *y, [](const TensorSpec& t) { return t.name; }, Step::major,
                [&](const std::string& subject, const TensorSpec& p, const TensorSpec& q) {
                    d.value(subject, "shape", p.shape, q.shape, Step::major);
                    d.text(subject, "description", p.description, q.description);
                });
    d.keyed(s + ", attribute", a.attributes, b.attributes, [](const Attribute& x) { return x.name; }, Step::minor,
            [&](const std::string& subject, const Attribute& x, const Attribute& y) {
                d.value(subject, "type", x.type, y.type, Step::major);
                d.names(subject, "values", x.values, y.values, Step::minor, Step::major);
                d.value(subject, "default", x.default_value.value_or(Json()).dump(),
                        y.default_value.value_or(Json()).dump(), Step::major);
                d.text(subject, "description", x.description, y.description);
            });
    d.keyed(s + ", function", a.functions, b.functions, [](const Function& f) { return f.name; }, Step::minor,
            [&](const std::string& subject, const Function& x, const Function& y) {
                d.value(subject, "arity", std::to_string(x.arity), std::to_string(y.arity), Step::major);
                d.text(subject, "definition", x.definition, y.definition);
            });
    d.keyed(s + ", config", a.configs, b.configs, [](const DtypeConfig& c) { return c.id(); }, Step::minor,
            [&](const std::string& subject, const DtypeConfig& x, const DtypeConfig& y) {
                d.value(subject, "accumulate", x.accumulate.value_or("(none)"), y.accumulate.value_or("(none)"),
                        Step::major);
            });
    for (const auto& [class_id, params] : b.contracts) {
        const auto found = a.contracts.find(class_id);
        if (found == a.contracts.end())
            d.add(s + ", " + class_id, "added", "its parameters", Step::minor);
        else
            compare_contract_parameters(d, s + ", " + class_id, found->second, params);
    }
    for (const auto& [class_id, params] : a.contracts)
        if (!b.contracts.count(class_id)) d.add(s + ", " + class_id, "removed", "its parameters", Step::major);
}

// ---- the rest ------------------------------------------------------------------

void compare_profile(Differ& d, const std::string& s, const Profile& a, const Profile& b) {
    d.text(s, "title", a.title, b.title);
    d.text(s, "description", a.description, b.description);
    for (const auto& [class_id, requirement] : b.classes) {
        const auto found = a.classes.find(class_id);
        if (found == a.classes.end())
            d.add(s, "added", "class " + class_id + " (" + requirement + ")", Step::minor);
        else
            d.value(s, "class " + class_id, found->second, requirement, Step::major);
    }
    for (const auto& [class_id, requirement] : a.classes)
        if (!b.classes.count(class_id)) d.add(s, "removed", "class " + class_id, Step::major);
    // Which claim values a profile accepts decides its verdict: any change is major.
    for (const auto& [claim, values] : b.claims) {
        const auto found = a.claims.find(claim);
        d.value(s, "accepted " + claim, found == a.claims.end() ? "(any)" : joined(found->second), joined(values),
                Step::major);
    }
    for (const auto& [claim, values] : a.claims)
        if (!b.claims.count(claim)) d.value(s, "accepted " + claim, joined(values), "(any)", Step::major);
}

}  // namespace

std::set<std::string> instance_keys(const Catalog& c, const std::string& only) {
    std::set<std::string> keys;
    for (const Profile& profile : c.profiles) {
        if (!only.empty() && profile.id != only) continue;
        for (const auto& [class_id, requirement] : profile.classes) {
            const ContractClass* k = c.find_class(class_id);
            if (!k) continue;
            for (const auto& op_id : k->scope_operators) {
                const Operator* op = c.find_operator(op_id);
                if (!op) continue;
                std::vector<std::string> members;
                for (const auto& f : op->functions) members.push_back(op_id + "." + f.name);
                if (members.empty()) members.push_back(op_id);
                for (const auto& member : members)
                    for (const auto& config : op->configs) keys.insert(class_id + "/" + member + "/" + config.id());
            }
        }
    }
    return keys;
}

std::string_view to_string(VersionStep step) {
    switch (step) {
        case VersionStep::patch: return "patch";
        case VersionStep::minor: return "minor";
        case VersionStep::major: return "major";
    }
    return "major";
}

VersionStep CatalogDiff::needed() const {
    VersionStep step = VersionStep::patch;
    for (const auto& c : changes) step = std::max(step, c.needs);
    return step;
}

std::optional<VersionStep> version_step(std::string_view from, std::string_view to) {
    if (!is_semantic_version(from) || !is_semantic_version(to) || compare_versions(to, from) <= 0) return std::nullopt;
    const auto part = [](std::string_view v, int i) {
        for (int k = 0; k < i; ++k) v.remove_prefix(v.find('.') + 1);
        return std::string(v.substr(0, v.find('.')));
    };
    if (compare_versions(part(from, 0) + ".0.0", part(to, 0) + ".0.0") != 0) return VersionStep::major;
    if (compare_versions("0." + part(from, 1) + ".0", "0." + part(to, 1) + ".0") != 0) return VersionStep::minor;
    return VersionStep::patch;
}

CatalogDiff diff_catalogs(const Catalog& a, const Catalog& b) {
    CatalogDiff diff;
    diff.from_version = a.spec_version;
    diff.to_version = b.spec_version;
    diff.from_digest = catalog_digest(a);
    diff.to_digest = catalog_digest(b);
    Differ d(diff.changes);
    d.text("catalog", "title", a.title, b.title);
    d.value("catalog", "generator", a.generator.name, b.generator.name, Step::major);
    d.text("catalog", "generator description", a.generator.description, b.generator.description);
    d.keyed("claim", a.claims, b.claims, [](const Claim& c) { return c.id; }, Step::minor,
            [&](const std::string& s, const Claim& x, const Claim& y) {
                d.names(s, "values", x.values, y.values, Step::minor, Step::major);
                d.value(s, "default", x.default_value, y.default_value, Step::major);
                // Naming the operators a claim states: an adapter that declines
                // them all need not make it; no verdict of a kernel changes.
                if (x.operators != y.operators)
                    d.add(s, "changed", "operators: " + (x.operators.empty() ? "(every)" : joined(x.operators)) +
                                            " -> " + (y.operators.empty() ? "(every)" : joined(y.operators)),
                          Step::minor);
                d.text(s, "description", x.description, y.description);
            });
    d.keyed("depth", a.depths, b.depths, [](const Depth& x) { return x.id; }, Step::minor,
            [&](const std::string& s, const Depth& x, const Depth& y) {
                if (x.seeds != y.seeds)
                    d.add(s, y.seeds > x.seeds ? "stronger" : "weaker",
                          "seeds " + std::to_string(x.seeds) + " -> " + std::to_string(y.seeds),
                          y.seeds > x.seeds ? Step::minor : Step::major);
                d.value(s, "certifiable", x.certifiable ? "true" : "false", y.certifiable ? "true" : "false", Step::major);
                d.text(s, "description", x.description, y.description);
            });
    d.keyed("implementation", a.implementations, b.implementations, [](const Implementation& x) { return x.id; },
            Step::minor, [&](const std::string& s, const Implementation& x, const Implementation& y) {
                d.value(s, "kind", x.kind, y.kind, Step::major);
                d.text(s, "description", x.description, y.description);
            });
    d.keyed("functional test", a.functional_tests, b.functional_tests, [](const FunctionalTest& x) { return x.id; },
            Step::minor, [&](const std::string& s, const FunctionalTest& x, const FunctionalTest& y) {
                d.value(s, "check", x.check, y.check, Step::major);
                d.value(s, "rtol", ref::round_trip_text(x.rtol), ref::round_trip_text(y.rtol), Step::major);
                d.value(s, "atol", ref::round_trip_text(x.atol), ref::round_trip_text(y.atol), Step::major);
                d.value(s, "distribution", x.distribution, y.distribution, Step::major);
                d.value(s, "shapes", Json(x.shapes).dump(), Json(y.shapes).dump(), Step::major);
                d.text(s, "description", x.description, y.description);
            });
    d.keyed("class", a.classes, b.classes, [](const ContractClass& x) { return x.id; }, Step::minor,
            [&](const std::string& s, const ContractClass& x, const ContractClass& y) { compare_class(d, s, x, y); });
    d.keyed("operator", a.operators, b.operators, [](const Operator& x) { return x.id; }, Step::minor,
            [&](const std::string& s, const Operator& x, const Operator& y) { compare_operator(d, s, x, y); });
    d.keyed("profile", a.profiles, b.profiles, [](const Profile& x) { return x.id; }, Step::minor,
            [&](const std::string& s, const Profile& x, const Profile& y) { compare_profile(d, s, x, y); });
    d.keyed("incident", a.incidents, b.incidents, [](const Incident& x) { return x.id; }, Step::minor,
            [&](const std::string& s, const Incident& x, const Incident& y) {
                d.text(s, "title", x.title, y.title);
                d.text(s, "summary", x.summary, y.summary);
                d.names(s, "references", x.references, y.references, Step::patch, Step::patch);
                d.value(s, "class and signature", x.class_id + " " + x.signature, y.class_id + " " + y.signature,
                        Step::minor);
                d.value(s, "violator", x.violator, y.violator, Step::minor);
                d.names(s, "operators", x.operators, y.operators, Step::minor, Step::minor);
            });

    const auto old_instances = instance_keys(a), new_instances = instance_keys(b);
    for (const auto& key : new_instances)
        if (!old_instances.count(key)) diff.instances_added.push_back(key);
    for (const auto& key : old_instances)
        if (!new_instances.count(key)) diff.instances_removed.push_back(key);
    if (!diff.instances_added.empty())
        d.add("instances", "added", std::to_string(diff.instances_added.size()) + " planned instance(s)", Step::minor);
    for (const auto& key : diff.instances_removed) d.add("instance " + key, "removed", "no longer planned", Step::major);
    return diff;
}

}  // namespace kcs::spec
