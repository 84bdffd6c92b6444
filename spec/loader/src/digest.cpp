// The catalog digest: sha256 over a canonical JSON form of the loaded
// catalog. It is built from the typed structs, not the YAML text, so
// comments, layout, quoting, key order, file order and number spelling
// (1e-2 vs 0.01) do not change it, and every field that carries meaning does.
#include <algorithm>

#include "kcs/spec/sha256.hpp"

#include "kcs/spec/catalog.hpp"

namespace kcs::spec {

namespace {

Json optional_json(const std::optional<std::string>& value) { return value ? Json(*value) : Json(nullptr); }

Json to_json(const ContractClass& k) {
    Json violating = Json::array();
    for (const auto& v : k.calibration.violating) {
        violating.push_back({{"implementation", v.implementation}, {"signature", v.signature},
                             {"operators", v.operators}, {"configs", v.configs}});
        if (!v.functions.empty()) violating.back()["functions"] = v.functions;
        for (const auto& a : v.also_fails) violating.back()["also_fails"].push_back({{"class", a.class_id}, {"why", a.why}});
    }
    Json signatures = Json::array();
    for (const auto& s : k.violation_signature) {
        signatures.push_back({{"id", s.id}, {"text", s.text}});
        if (!s.selected_when.empty()) signatures.back()["selected_when"] = s.selected_when;
    }
    Json requirements = Json::array();
    for (const auto& r : k.requirements)
        requirements.push_back({{"condition", r.condition}, {"operators", r.operators}, {"reason", r.reason}});
    Json parameters = Json::array();
    for (const auto& p : k.parameters)
        parameters.push_back({{"name", p.name}, {"type", p.type}, {"required", p.required},
                              {"description", p.description}});
    return {
        {"identifier", {{"id", k.id}, {"title", k.title}, {"family", k.family}, {"primitive", k.primitive}}},
        {"scope", {{"operators", k.scope_operators}, {"claim", optional_json(k.scope_claim)}, {"text", k.scope_text}}},
        {"precondition", k.precondition},
        {"requires", requirements},
        {"postcondition", k.postcondition},
        {"tolerance", {{"model", k.tolerance.model}, {"params", k.tolerance.params},
                       {"derivation", k.tolerance.derivation}}},
        {"reference_oracle", k.reference_oracle},
        {"measurement_protocol", k.measurement_protocol},
        {"violation_signature", signatures},
        {"parameters", parameters},
        {"calibration", {{"conforming", k.calibration.conforming}, {"violating", violating},
                         {"functional_test", k.calibration.functional_test}}},
    };
}

Json to_json(const std::vector<TensorSpec>& tensors) {
    Json out = Json::array();
    for (const auto& t : tensors) out.push_back({{"name", t.name}, {"shape", t.shape}, {"description", t.description}});
    return out;
}

Json to_json(const Operator& op) {
    Json attributes = Json::array();
    for (const auto& a : op.attributes)
        attributes.push_back({{"name", a.name}, {"type", a.type}, {"values", a.values},
                              {"default", a.default_value.value_or(Json(nullptr))}, {"description", a.description}});
    Json functions = Json::array();
    for (const auto& f : op.functions)
        functions.push_back({{"name", f.name}, {"arity", f.arity}, {"definition", f.definition}});
    Json configs = Json::array();
    for (const auto& c : op.configs)
        configs.push_back({{"id", c.id()}, {"inputs", c.inputs}, {"output", c.output},
                           {"accumulate", optional_json(c.accumulate)}});
    Json contracts = Json::object();
    for (const auto& [class_id, params] : op.contracts) {
        contracts[class_id] = Json::object();
        for (const auto& [name, by_depth] : params) contracts[class_id][name] = by_depth;
    }
    return {{"id", op.id},           {"title", op.title},   {"definition", op.definition},
            {"inputs", to_json(op.inputs)}, {"outputs", to_json(op.outputs)}, {"attributes", attributes},
            {"functions", functions}, {"configs", configs}, {"contracts", contracts}};
}

template <typename T, typename Convert>
Json sorted_by_id(const std::vector<T>& items, Convert convert) {
    std::vector<const T*> order;
    for (const auto& item : items) order.push_back(&item);
    std::sort(order.begin(), order.end(), [](const T* a, const T* b) { return a->id < b->id; });
    Json out = Json::array();
    for (const T* item : order) out.push_back(convert(*item));
    return out;
}

}  // namespace

std::string canonical_json(const Catalog& cat) {
    Json doc;
    doc["spec_version"] = cat.spec_version;
    doc["title"] = cat.title;
    doc["generator"] = {{"name", cat.generator.name}, {"description", cat.generator.description}};
    doc["claims"] = sorted_by_id(cat.claims, [](const Claim& c) {
        Json claim{{"id", c.id}, {"values", c.values}, {"default", c.default_value}, {"description", c.description}};
        if (!c.operators.empty()) claim["operators"] = c.operators;
        return claim;
    });
    doc["depths"] = sorted_by_id(cat.depths, [](const Depth& d) {
        return Json{{"id", d.id}, {"seeds", d.seeds}, {"certifiable", d.certifiable}, {"description", d.description}};
    });
    doc["implementations"] = sorted_by_id(cat.implementations, [](const Implementation& i) {
        return Json{{"id", i.id}, {"kind", i.kind}, {"description", i.description}};
    });
    doc["functional_tests"] = sorted_by_id(cat.functional_tests, [](const FunctionalTest& t) {
        return Json{{"id", t.id},           {"check", t.check},   {"rtol", t.rtol},     {"atol", t.atol},
                    {"distribution", t.distribution}, {"description", t.description}, {"shapes", t.shapes}};
    });
    doc["classes"] = sorted_by_id(cat.classes, [](const ContractClass& k) { return to_json(k); });
    doc["operators"] = sorted_by_id(cat.operators, [](const Operator& o) { return to_json(o); });
    doc["profiles"] = sorted_by_id(cat.profiles, [](const Profile& p) {
        return Json{{"id", p.id}, {"title", p.title}, {"description", p.description},
                    {"classes", p.classes}, {"claims", p.claims}};
    });
    doc["incidents"] = sorted_by_id(cat.incidents, [](const Incident& i) {
        return Json{{"id", i.id},           {"title", i.title},         {"summary", i.summary},
                    {"references", i.references}, {"class", i.class_id},     {"signature", i.signature},
                    {"violator", i.violator},     {"operators", i.operators}};
    });
    // nlohmann's objects are key-sorted maps and dump() writes no whitespace
    // and shortest round-trip numbers: the text is canonical.
    return doc.dump();
}

std::string catalog_digest(const Catalog& catalog) { return sha256_digest(canonical_json(catalog)); }

}  // namespace kcs::spec
