// classes/C-XXX-NN.yaml: one contract class and its eight parts.
#include <algorithm>
#include <set>

#include "kcs/spec/tolerance_models.hpp"
#include "kcs/spec/text_patterns.hpp"
#include "load_context.hpp"

namespace kcs::spec::detail {

namespace {

const std::vector<std::string> kParameterTypes{"int",      "number",      "string",      "bool",
                                               "int_list", "number_list", "string_list", "shape_list"};

// The class id's family code must agree with its family.
std::string family_of(const std::string& class_id) {
    const std::string code = class_id.substr(2, 3);
    if (code == "PRC") return "precision";
    if (code == "ORD") return "ordering";
    if (code == "CMP") return "compiler";
    return "exceptional";
}

void parse_identifier(Fields& top, ContractClass& k, const std::string& stem) {
    Document& doc = top.doc();
    const YAML::Node node = top.get("identifier");
    if (!node.IsDefined()) return;
    Fields f(doc, node, "identifier");
    const YAML::Node id_node = f.get("id");
    if (id_node.IsDefined()) k.id = as_text(doc, id_node, "identifier.id").value_or("");
    k.title = f.text("title");
    k.family = f.one_of("family", {"precision", "ordering", "compiler", "exceptional"});
    k.primitive = f.one_of("primitive", {"path_dependence", "domain_violation", "resource_contention"});
    f.finish();
    if (k.id.empty()) return;
    if (!is_class_id(k.id)) {
        doc.finding(id_node, "class id '" + k.id + "' is not of the form C-PRC-01",
                    "class ids are C-, a family code (PRC, ORD, CMP, EXC), '-' and two digits");
        return;
    }
    if (k.id != stem)
        doc.finding(id_node, "class id '" + k.id + "' does not match its file name '" + stem + ".yaml'",
                    "name the file after the id, or fix the id");
    if (!k.family.empty() && family_of(k.id) != k.family)
        doc.finding(f.get("family"), "class " + k.id + " is in family '" + family_of(k.id) +
                                         "' by its id, but says '" + k.family + "'");
}

void parse_scope(LoadContext& ctx, Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node node = top.get("scope");
    if (!node.IsDefined()) return;
    Fields f(doc, node, "scope");
    const YAML::Node ops = f.get("operators");
    if (ops.IsDefined()) {
        k.scope_operators = as_text_list(doc, ops, "scope.operators");
        for (std::size_t i = 0; i < k.scope_operators.size() && i < ops.size(); ++i) {
            ctx.later([&doc, at = ops[i], op = k.scope_operators[i], id = k.id](Catalog& c) {
                if (!check_reference(doc, at, "operator", op, ids_of(c.operators))) return;
                // The operator file must list this class too: the two views agree.
                const Operator* o = c.find_operator(op);
                if (!id.empty() && !o->contracts.contains(id))
                    doc.finding(at, "class " + id + " lists operator '" + op + "' in its scope, but " +
                                        o->where.file + " has no contracts entry for " + id,
                                "add '" + id + ":' under contracts in the operator file, or drop it here");
            });
        }
    }
    const YAML::Node claim = f.get("claim", false);
    if (claim.IsDefined()) {
        k.scope_claim = as_text(doc, claim, "scope.claim");
        ctx.later([&doc, claim, name = k.scope_claim.value_or("")](Catalog& c) {
            if (!check_reference(doc, claim, "claim", name, ids_of(c.claims))) return;
            const auto& values = c.find_claim(name)->values;
            if (std::find(values.begin(), values.end(), "true") == values.end())
                doc.finding(claim, "scope.claim '" + name + "' has no value 'true'",
                            "a class can be gated only by a true/false claim");
        });
    }
    k.scope_text = f.text("text");
    f.finish();
}

// requires: the preconditions the plan decides from the catalog's data.
void parse_requirements(Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node node = top.optional_list("requires", "{condition, operators, reason}");
    if (!node.IsDefined()) return;
    for (std::size_t i = 0; i < node.size(); ++i) {
        Fields f(doc, node[i], "requires[" + std::to_string(i) + "]");
        Requirement r;
        r.condition = f.one_of("condition", requirement_conditions());
        const YAML::Node ops = f.get("operators", false);
        if (ops.IsDefined()) {
            r.operators = as_text_list(doc, ops, "requires[" + std::to_string(i) + "].operators");
            for (std::size_t j = 0; j < r.operators.size() && j < ops.size(); ++j)
                if (std::find(k.scope_operators.begin(), k.scope_operators.end(), r.operators[j]) ==
                    k.scope_operators.end())
                    doc.finding(ops[j], "requires names operator '" + r.operators[j] + "', which is not in the scope",
                                "name an operator of scope.operators");
        }
        r.reason = f.text("reason");
        f.finish();
        k.requirements.push_back(std::move(r));
    }
}

void parse_tolerance(LoadContext& ctx, Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node node = top.get("tolerance");
    if (!node.IsDefined()) return;
    Fields f(doc, node, "tolerance");
    std::vector<std::string> names;
    for (const auto& m : tolerance_models()) names.push_back(m.name);
    k.tolerance.model = f.one_of("model", names);
    const YAML::Node params = f.get("params");
    k.tolerance.derivation = f.text("derivation");
    f.finish();
    const ToleranceModel* model = find_tolerance_model(k.tolerance.model);
    if (!model || !params.IsDefined()) return;

    Fields pf(doc, params, "tolerance.params of model " + model->name);
    if (!pf.is_map() && !params.IsNull()) return;
    for (const auto& p : model->parameters) {
        // A parameter newer than the catalog is not part of it.
        const bool required = p.since.empty() || ctx.catalog.spec_version.empty() ||
                              !is_semantic_version(ctx.catalog.spec_version) ||
                              compare_versions(ctx.catalog.spec_version, p.since) >= 0;
        const YAML::Node value = pf.get(p.name, required);
        if (!value.IsDefined()) continue;
        const std::string what = "tolerance.params." + p.name;
        if (p.type == "number" || p.type == "int") {
            if (auto v = as_typed(doc, value, p.type, what)) k.tolerance.params[p.name] = *v;
            continue;
        }
        Fields outer(doc, value, what);
        if (!outer.is_map()) continue;
        Json table = Json::object();
        for (const auto& entry : value) {
            const std::string key = entry.first.Scalar();
            outer.get(key);
            if (p.type == "dtype_int_map") {
                check_reference(doc, entry.first, what + " dtype", key, dtype_names());
                if (auto v = as_integer(doc, entry.second, what + "." + key)) table[key] = *v;
                continue;
            }
            // ulp_table: function -> dtype -> max ulp. Functions must belong to
            // an operator in this class's scope.
            ctx.later([&doc, at = entry.first, key, scope = k.scope_operators](Catalog& c) {
                std::vector<std::string> functions;
                for (const auto& op : scope)
                    if (const Operator* o = c.find_operator(op))
                        for (const auto& fn : o->functions) functions.push_back(fn.name);
                check_reference(doc, at, "function", key, functions);
            });
            Fields inner(doc, entry.second, what + "." + key);
            if (!inner.is_map()) continue;
            for (const auto& cell : entry.second) {
                const std::string dtype = cell.first.Scalar();
                inner.get(dtype);
                check_reference(doc, cell.first, what + "." + key + " dtype", dtype, dtype_names());
                if (auto v = as_number(doc, cell.second, what + "." + key + "." + dtype)) {
                    if (*v < 0) doc.finding(cell.second, what + "." + key + "." + dtype + " is negative");
                    table[key][dtype] = *v;
                }
            }
            inner.finish();
        }
        outer.finish();
        k.tolerance.params[p.name] = table;
    }
    pf.finish();
}

void parse_signatures(Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node list = top.get("violation_signature");
    if (!list.IsDefined()) return;
    if (!list.IsSequence() || list.size() == 0) {
        doc.finding(list, "violation_signature must be a non-empty list of {id, text}");
        return;
    }
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], "violation_signature " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        Signature s{f.id("id"), f.text("text"), {}};
        if (f.get("selected_when", false).IsDefined()) s.selected_when = f.text("selected_when");
        f.finish();
        check_unique(doc, list[i], "signature", s.id, seen);
        k.violation_signature.push_back(std::move(s));
    }
}

void parse_parameters(Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node list = top.optional_list("parameters", "{name, type, description}");
    if (!list.IsDefined()) return;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], "parameter " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        Parameter p;
        p.name = f.text("name");
        p.type = f.one_of("type", kParameterTypes);
        p.required = f.boolean("required", false).value_or(false);
        p.description = f.text("description");
        f.finish();
        check_unique(doc, list[i], "parameter", p.name, seen);
        k.parameters.push_back(std::move(p));
    }
}

void parse_calibration(LoadContext& ctx, Fields& top, ContractClass& k) {
    Document& doc = top.doc();
    const YAML::Node node = top.get("calibration");
    if (!node.IsDefined()) return;
    Fields f(doc, node, "calibration");
    const YAML::Node conforming = f.get("conforming");
    if (conforming.IsDefined()) {
        k.calibration.conforming = as_text_list(doc, conforming, "calibration.conforming");
        for (std::size_t i = 0; i < k.calibration.conforming.size() && i < conforming.size(); ++i) {
            ctx.later([&doc, at = conforming[i], name = k.calibration.conforming[i]](Catalog& c) {
                if (!check_reference(doc, at, "implementation", name, ids_of(c.implementations))) return;
                if (c.find_implementation(name)->kind != "conforming")
                    doc.finding(at, "implementation '" + name + "' is listed as conforming but is of kind " +
                                        c.find_implementation(name)->kind);
            });
        }
    }
    const YAML::Node violating = f.get("violating");
    if (violating.IsDefined() && (!violating.IsSequence() || violating.size() == 0))
        doc.finding(violating, "calibration.violating must list at least one violating implementation",
                    "three-state calibration needs a violator that fails this class");
    for (std::size_t i = 0; violating.IsSequence() && i < violating.size(); ++i) {
        Fields v(doc, violating[i], "calibration.violating " + std::to_string(i + 1));
        if (!v.is_map()) continue;
        ViolatorUse use;
        const YAML::Node impl = v.get("implementation");
        use.implementation = v.text("implementation");
        const YAML::Node sig = v.get("signature");
        use.signature = v.text("signature");
        const YAML::Node ops = v.get("operators");
        use.operators = v.text_list("operators");
        const YAML::Node configs = v.get("configs", false);
        if (configs.IsDefined()) use.configs = as_text_list(doc, configs, "calibration.violating.configs");
        const YAML::Node functions = v.get("functions", false);
        if (functions.IsDefined()) use.functions = as_text_list(doc, functions, "calibration.violating.functions");
        const YAML::Node also = v.get("also_fails", false);
        if (also.IsDefined() && !also.IsSequence())
            doc.finding(also, "calibration.violating.also_fails must be a list of {class, why}");
        for (std::size_t j = 0; also.IsSequence() && j < also.size(); ++j) {
            Fields a(doc, also[j], "calibration.violating.also_fails " + std::to_string(j + 1));
            if (!a.is_map()) continue;
            ViolatorUse::AlsoFails entry{a.text("class"), a.text("why")};
            const YAML::Node at = a.get("class");
            a.finish();
            ctx.later([&doc, at, id = entry.class_id](Catalog& c) {
                check_reference(doc, at, "class", id, ids_of(c.classes));
            });
            use.also_fails.push_back(std::move(entry));
        }
        v.finish();
        // Each function must be a member of a listed operator's family.
        for (std::size_t j = 0; j < use.functions.size() && j < functions.size(); ++j) {
            ctx.later([&doc, at = functions[j], function = use.functions[j], ops = use.operators](Catalog& c) {
                std::vector<std::string> known;
                for (const auto& op : ops)
                    if (const Operator* o = c.find_operator(op))
                        for (const auto& f : o->functions) known.push_back(f.name);
                check_reference(doc, at, "function of the listed operators", function, known);
            });
        }
        // Each config must be one of a listed operator's configurations.
        for (std::size_t j = 0; j < use.configs.size() && j < configs.size(); ++j) {
            ctx.later([&doc, at = configs[j], config = use.configs[j], ops = use.operators](Catalog& c) {
                std::vector<std::string> known;
                for (const auto& op : ops)
                    if (const Operator* o = c.find_operator(op))
                        for (const auto& cfg : o->configs) known.push_back(cfg.id());
                check_reference(doc, at, "dtype configuration of the listed operators", config, known);
            });
        }
        if (!use.signature.empty()) {
            std::vector<std::string> ids;
            for (const auto& s : k.violation_signature) ids.push_back(s.id);
            check_reference(doc, sig, "signature", use.signature, ids);
        }
        for (std::size_t j = 0; j < use.operators.size() && j < ops.size(); ++j) {
            check_reference(doc, ops[j], "operator (not in this class's scope)", use.operators[j],
                            k.scope_operators);
        }
        ctx.later([&doc, impl, name = use.implementation](Catalog& c) {
            if (name.empty() || !check_reference(doc, impl, "implementation", name, ids_of(c.implementations)))
                return;
            if (c.find_implementation(name)->kind != "violating")
                doc.finding(impl, "implementation '" + name + "' is listed as violating but is of kind " +
                                      c.find_implementation(name)->kind);
        });
        k.calibration.violating.push_back(std::move(use));
    }
    const YAML::Node test = f.get("functional_test");
    k.calibration.functional_test = f.text("functional_test");
    f.finish();
    ctx.later([&doc, test, name = k.calibration.functional_test](Catalog& c) {
        if (!name.empty()) check_reference(doc, test, "functional test", name, ids_of(c.functional_tests));
    });
}

}  // namespace

void parse_class(LoadContext& ctx, Document& doc, const std::string& stem) {
    Fields top(doc, doc.root(), "class " + stem);
    ContractClass k;
    k.where = doc.at(doc.root());
    parse_identifier(top, k, stem);
    parse_scope(ctx, top, k);
    k.precondition = top.text("precondition");
    parse_requirements(top, k);
    k.postcondition = top.text("postcondition");
    parse_tolerance(ctx, top, k);
    k.reference_oracle = top.text("reference_oracle");
    k.measurement_protocol = top.text_list("measurement_protocol");
    parse_signatures(top, k);
    parse_parameters(top, k);
    parse_calibration(ctx, top, k);
    top.finish();

    if (!k.id.empty() && ctx.catalog.find_class(k.id)) {
        doc.finding(top.get("identifier"), "duplicate class id '" + k.id + "'",
                    "another included file defines it already");
        return;
    }
    ctx.catalog.classes.push_back(std::move(k));
}

}  // namespace kcs::spec::detail
