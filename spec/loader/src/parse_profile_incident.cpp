// profiles/NAME.yaml and incidents/NAME.yaml.
#include <algorithm>

#include "load_context.hpp"

namespace kcs::spec::detail {

namespace {

void check_stem(Document& doc, Fields& top, const std::string& kind, const std::string& id,
                const std::string& stem) {
    if (!id.empty() && id != stem)
        doc.finding(top.get("id"), kind + " id '" + id + "' does not match its file name '" + stem + ".yaml'",
                    "name the file after the id, or fix the id");
}

}  // namespace

void parse_profile(LoadContext& ctx, Document& doc, const std::string& stem) {
    Fields top(doc, doc.root(), "profile " + stem);
    Profile p;
    p.where = doc.at(doc.root());
    p.id = top.id("id");
    check_stem(doc, top, "profile", p.id, stem);
    p.title = top.text("title");
    p.description = top.text("description");

    const YAML::Node classes = top.get("classes");
    Fields cf(doc, classes, "profile " + stem + " classes");
    if (cf.is_map()) {
        for (const auto& entry : classes) {
            const std::string id = entry.first.Scalar();
            const std::string requirement = cf.one_of(id, {"required", "if_claimed"});
            if (requirement.empty()) continue;
            p.classes[id] = requirement;
            ctx.later([&doc, key = entry.first, id, requirement](Catalog& c) {
                if (!check_reference(doc, key, "class", id, ids_of(c.classes))) return;
                if (requirement == "if_claimed" && !c.find_class(id)->scope_claim)
                    doc.finding(key, "class " + id + " is 'if_claimed' but its scope names no claim",
                                "give the class a scope.claim, or make it 'required'");
            });
        }
        cf.finish();
    }

    const YAML::Node claims = top.get("claims");
    Fields kf(doc, claims, "profile " + stem + " claims");
    if (kf.is_map()) {
        for (const auto& entry : claims) {
            const std::string id = entry.first.Scalar();
            auto values = kf.text_list(id);
            ctx.later([&doc, key = entry.first, list = entry.second, id, values](Catalog& c) {
                if (!check_reference(doc, key, "claim", id, ids_of(c.claims))) return;
                const auto& allowed = c.find_claim(id)->values;
                for (std::size_t i = 0; i < values.size() && i < list.size(); ++i)
                    check_reference(doc, list[i], "value of claim " + id, values[i], allowed);
            });
            p.claims[id] = std::move(values);
        }
        kf.finish();
    }
    top.finish();
    if (!p.id.empty() && ctx.catalog.find_profile(p.id)) {
        doc.finding(top.get("id"), "duplicate profile id '" + p.id + "'");
        return;
    }
    ctx.catalog.profiles.push_back(std::move(p));
}

void parse_incident(LoadContext& ctx, Document& doc, const std::string& stem) {
    Fields top(doc, doc.root(), "incident " + stem);
    Incident inc;
    inc.where = doc.at(doc.root());
    inc.id = top.id("id");
    check_stem(doc, top, "incident", inc.id, stem);
    inc.title = top.text("title");
    inc.summary = top.text("summary");
    inc.references = top.text_list("references");
    const YAML::Node class_node = top.get("class");
    inc.class_id = top.text("class");
    const YAML::Node sig = top.get("signature");
    inc.signature = top.text("signature");
    const YAML::Node violator = top.get("violator");
    inc.violator = top.text("violator");
    const YAML::Node ops = top.get("operators");
    inc.operators = top.text_list("operators");
    top.finish();

    ctx.later([&doc, class_node, sig, violator, ops, inc](Catalog& c) {
        if (inc.class_id.empty() || !check_reference(doc, class_node, "class", inc.class_id, ids_of(c.classes)))
            return;
        const ContractClass& k = *c.find_class(inc.class_id);
        std::vector<std::string> sigs, violators;
        for (const auto& s : k.violation_signature) sigs.push_back(s.id);
        for (const auto& v : k.calibration.violating) violators.push_back(v.implementation);
        if (!inc.signature.empty())
            check_reference(doc, sig, "signature of " + k.id, inc.signature, sigs);
        if (!inc.violator.empty())
            check_reference(doc, violator, "violator in the calibration of " + k.id, inc.violator, violators);
        for (std::size_t i = 0; i < inc.operators.size() && i < ops.size(); ++i)
            check_reference(doc, ops[i], "operator in the scope of " + k.id, inc.operators[i], k.scope_operators);
    });
    if (!inc.id.empty() && ctx.catalog.find_incident(inc.id)) {
        doc.finding(top.get("id"), "duplicate incident id '" + inc.id + "'");
        return;
    }
    ctx.catalog.incidents.push_back(std::move(inc));
}

}  // namespace kcs::spec::detail
