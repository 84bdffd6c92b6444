// operators/NAME.yaml: one operator, its dtype configurations and the
// parameter values of every class that applies to it.
#include <algorithm>

#include "load_context.hpp"

namespace kcs::spec::detail {

namespace {

std::vector<TensorSpec> parse_tensors(Fields& top, const std::string& key, bool required) {
    std::vector<TensorSpec> out;
    Document& doc = top.doc();
    const YAML::Node list = top.get(key, required);
    if (!list.IsDefined()) return out;
    if (!list.IsSequence() || list.size() == 0) {
        doc.finding(list, key + " must be a non-empty list of {name, shape, description}");
        return out;
    }
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], key + " " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        TensorSpec t{f.text("name"), f.text("shape"), f.text("description")};
        f.finish();
        check_unique(doc, list[i], key.substr(0, key.size() - 1), t.name, seen);
        out.push_back(std::move(t));
    }
    return out;
}

void parse_attributes(Fields& top, Operator& op) {
    Document& doc = top.doc();
    const YAML::Node list = top.optional_list("attributes", "{name, type, description}");
    if (!list.IsDefined()) return;
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], "attribute " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        Attribute a;
        a.name = f.text("name");
        a.type = f.one_of("type", {"bool", "int", "number", "string", "enum"});
        const YAML::Node values = f.get("values", a.type == "enum");
        if (values.IsDefined()) {
            if (a.type != "enum") doc.finding(values, "only enum attributes take 'values'");
            a.values = as_text_list(doc, values, "attribute " + a.name + " values");
        }
        const YAML::Node def = f.get("default", false);
        a.description = f.text("description");
        f.finish();
        check_unique(doc, list[i], "attribute", a.name, seen);
        if (def.IsDefined() && !a.type.empty()) {
            if (a.type == "enum") {
                if (auto v = as_text(doc, def, "attribute " + a.name + " default");
                    v && check_reference(doc, def, "enum value", *v, a.values))
                    a.default_value = Json(*v);
            } else if (auto v = as_typed(doc, def, a.type, "attribute " + a.name + " default")) {
                a.default_value = *v;
            }
        }
        op.attributes.push_back(std::move(a));
    }
}

void parse_functions(Fields& top, Operator& op) {
    Document& doc = top.doc();
    const YAML::Node list = top.get("functions", false);
    if (!list.IsDefined()) return;
    if (!list.IsSequence() || list.size() == 0) {
        doc.finding(list, "functions must be a non-empty list of {name, arity, definition}");
        return;
    }
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], "function " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        Function fn;
        fn.name = f.id("name");
        const auto arity = f.integer("arity");
        fn.arity = static_cast<int>(arity.value_or(0));
        fn.definition = f.text("definition");
        f.finish();
        check_unique(doc, list[i], "function", fn.name, seen);
        if (arity && (fn.arity < 1 || fn.arity > static_cast<int>(op.inputs.size())))
            doc.finding(f.get("arity"), "function " + fn.name + " has arity " + std::to_string(fn.arity) +
                                            " but the operator has " + std::to_string(op.inputs.size()) +
                                            " inputs");
        op.functions.push_back(std::move(fn));
    }
}

void parse_configs(Fields& top, Operator& op) {
    Document& doc = top.doc();
    const YAML::Node list = top.get("configs");
    if (!list.IsDefined()) return;
    if (!list.IsSequence() || list.size() == 0) {
        doc.finding(list, "configs must list at least one dtype configuration");
        return;
    }
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(doc, list[i], "config " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        DtypeConfig c;
        const YAML::Node inputs = f.get("inputs");
        c.inputs = f.text_list("inputs");
        for (std::size_t j = 0; j < c.inputs.size() && j < inputs.size(); ++j)
            check_reference(doc, inputs[j], "dtype", c.inputs[j], dtype_names());
        c.output = f.one_of("output", dtype_names());
        const YAML::Node acc = f.get("accumulate", false);
        if (acc.IsDefined()) {
            c.accumulate = f.one_of("accumulate", dtype_names());
        }
        f.finish();
        if (!op.inputs.empty() && !c.inputs.empty() && c.inputs.size() != op.inputs.size())
            doc.finding(inputs, "config gives " + std::to_string(c.inputs.size()) + " input dtypes but " +
                                    op.id + " has " + std::to_string(op.inputs.size()) + " inputs",
                        "give one dtype per input, in the order of 'inputs'");
        check_unique(doc, list[i], "config", c.id(), seen);
        op.configs.push_back(std::move(c));
    }
}

// Converts one parameter value: a single value, or one value per depth.
std::optional<DepthValues> parse_depth_values(Document& doc, const YAML::Node& node, const Parameter& p,
                                              const std::vector<Depth>& depths, const std::string& what) {
    std::vector<std::string> depth_ids;
    for (const auto& d : depths) depth_ids.push_back(d.id);
    DepthValues out;
    if (node.IsMap()) {
        Fields f(doc, node, what);
        for (const auto& d : depth_ids) {
            const YAML::Node v = f.get(d);
            if (!v.IsDefined()) continue;
            if (auto value = as_typed(doc, v, p.type, what + "." + d)) out[d] = *value;
        }
        f.finish();
        if (out.size() != depth_ids.size()) return std::nullopt;
        return out;
    }
    auto value = as_typed(doc, node, p.type, what);
    if (!value) return std::nullopt;
    for (const auto& d : depth_ids) out[d] = *value;
    return out;
}

void parse_contracts(LoadContext& ctx, Fields& top, Operator& op, std::size_t index) {
    Document& doc = top.doc();
    const YAML::Node node = top.get("contracts");
    if (!node.IsDefined()) return;
    Fields f(doc, node, "contracts");
    if (!f.is_map()) return;
    for (const auto& entry : node) {
        const std::string class_id = entry.first.Scalar();
        f.get(class_id);
        op.contracts[class_id] = {};
        // Parameter types are declared by the class, which may live in a file
        // parsed later: convert once everything is read.
        ctx.later([&doc, key = entry.first, params = entry.second, class_id, index](Catalog& c) {
            Operator& o = c.operators[index];
            std::vector<std::string> ids;
            for (const auto& k : c.classes) ids.push_back(k.id);
            if (!check_reference(doc, key, "class", class_id, ids)) return;
            const ContractClass& k = *c.find_class(class_id);
            if (std::find(k.scope_operators.begin(), k.scope_operators.end(), o.id) == k.scope_operators.end())
                doc.finding(key, "operator " + o.id + " lists " + class_id + ", but that class's scope does not "
                                 "include " + o.id, "add " + o.id + " to the scope of " + class_id +
                                 " (" + k.where.file + "), or remove this entry");
            const std::string what = "contracts." + class_id;
            if (params.IsNull()) {
                doc.finding(params, what + " is empty", "write {} when the class takes no parameters");
                return;
            }
            Fields pf(doc, params, what);
            if (!pf.is_map()) return;
            for (const auto& p : k.parameters) {
                const YAML::Node v = pf.get(p.name, p.required);
                if (!v.IsDefined()) continue;
                if (auto values = parse_depth_values(doc, v, p, c.depths, what + "." + p.name))
                    o.contracts[class_id][p.name] = std::move(*values);
            }
            pf.finish();
        });
    }
    f.finish();
}

}  // namespace

void parse_operator(LoadContext& ctx, Document& doc, const std::string& stem) {
    Fields top(doc, doc.root(), "operator " + stem);
    Operator op;
    op.where = doc.at(doc.root());
    op.id = top.id("id");
    if (!op.id.empty() && op.id != stem)
        doc.finding(top.get("id"), "operator id '" + op.id + "' does not match its file name '" + stem + ".yaml'",
                    "name the file after the id, or fix the id");
    op.title = top.text("title");
    op.definition = top.text("definition");
    op.inputs = parse_tensors(top, "inputs", true);
    op.outputs = parse_tensors(top, "outputs", true);
    parse_attributes(top, op);
    parse_functions(top, op);
    parse_configs(top, op);
    const std::size_t index = ctx.catalog.operators.size();
    parse_contracts(ctx, top, op, index);
    top.finish();
    if (!op.id.empty() && ctx.catalog.find_operator(op.id)) {
        doc.finding(top.get("id"), "duplicate operator id '" + op.id + "'", "another included file defines it already");
    }
    // Stored even when a duplicate, so deferred checks keep a valid index.
    ctx.catalog.operators.push_back(std::move(op));
}

}  // namespace kcs::spec::detail
